import Testing

@testable import Formats

/// One input of the conformance corpus: its name (after JSONTestSuite's `test_parsing` file it
/// stands for) and its bytes.
struct JSONCase: Sendable, CustomTestStringConvertible {
  let name: String
  let bytes: [UInt8]
  var testDescription: String { name }

  init(_ name: String, _ text: String) {
    self.name = name
    bytes = Array(text.utf8)
  }

  init(_ name: String, bytes: [UInt8]) {
    self.name = name
    self.bytes = bytes
  }

  /// `text` with `byte` (not valid UTF-8 on its own, or a control byte) put where each `~` is.
  init(_ name: String, _ text: String, byte: UInt8) {
    self.name = name
    var bytes: [UInt8] = []
    for unit in text.utf8 {
      if unit == UInt8(ascii: "~") { bytes.append(byte) } else { bytes.append(unit) }
    }
    self.bytes = bytes
  }
}

/// The hand-written reader against a JSON conformance corpus modelled on JSONTestSuite's
/// `test_parsing` categories (Nicolas Seriot, "Parsing JSON is a Minefield"): every `y_` input
/// must be accepted, every `n_` input rejected, and no `i_` input (which RFC 8259 leaves to the
/// reader) may crash it. The cases are written here, one per suite file, by name.
///
/// A JSON text is read with ``JSONReader/document(_:)`` (exactly one value). ``JSONReader/values(_:)``
/// deliberately reads a sequence of values (JSON Lines and a single value alike), so it accepts
/// five `n_` inputs that are wrong only as one JSON text: `n_structure_no_data`,
/// `n_single_space` and `n_structure_UTF8_BOM_no_data` (zero values), `n_structure_double_array`
/// and `n_structure_object_with_trailing_garbage` (two values); ``sequenceReadingDiffers`` pins
/// that.
@Suite("JSON conformance corpus")
struct JSONConformanceTests {
  static func accepts(_ bytes: [UInt8]) -> Bool {
    (try? JSONReader.document(bytes)) != nil
  }

  @Test(arguments: yes)
  func mustAccept(_ input: JSONCase) {
    #expect(Self.accepts(input.bytes), "\(input.name) was rejected")
  }

  @Test(arguments: no)
  func mustReject(_ input: JSONCase) {
    #expect(!Self.accepts(input.bytes), "\(input.name) was accepted")
  }

  /// The reader's own answer where RFC 8259 leaves it free: numbers of any size are kept as
  /// written; a lone surrogate escape reads as U+FFFD; bytes that are not UTF-8 are refused;
  /// nesting up to ``JSONReader/maximumDepth`` is read.
  @Test(arguments: implementationDefined)
  func freeToChoose(_ input: JSONCase, accepted: Bool) {
    #expect(Self.accepts(input.bytes) == accepted, "\(input.name)")
  }

  @Test func corpusCoversEverySuiteCase() {
    #expect(Self.yes.count == 95)
    #expect(Self.no.count == 188)
    #expect(Self.implementationDefined.count == 35)
    let names = (Self.yes + Self.no + Self.implementationDefined.map(\.0)).map(\.name)
    #expect(Set(names).count == names.count, "a case is named twice")
    #expect(Self.yes.allSatisfy { $0.name.hasPrefix("y_") })
    #expect(Self.no.allSatisfy { $0.name.hasPrefix("n_") })
    #expect(Self.implementationDefined.allSatisfy { $0.0.name.hasPrefix("i_") })
  }

  /// 100,000 opening brackets: refused at the depth cap with an error, not a stack overflow.
  @Test func deepNestingIsRejectedWithoutExhaustingTheStack() {
    let input = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.document(input) }
    #expect(throws: JSONSyntaxError.self) { try JSONReader.values(input) }
    do {
      _ = try JSONReader.document(input)
    } catch {
      #expect(error.problem == "nested more than \(JSONReader.maximumDepth) levels deep")
    }
    let closed = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONReader.document(Array(closed.utf8)) }
  }

  /// ``JSONReader/values(_:)`` reads a sequence, so the five inputs wrong only as one JSON text
  /// are read by it (as zero or two values), while the rest of the `n_` corpus is refused.
  @Test func sequenceReadingDiffers() throws {
    let sequenceOnly = [
      "n_structure_no_data", "n_single_space", "n_structure_UTF8_BOM_no_data", "n_structure_double_array",
      "n_structure_object_with_trailing_garbage",
    ]
    for input in Self.no {
      let values = try? JSONReader.values(input.bytes)
      if sequenceOnly.contains(input.name) {
        #expect(values != nil && values?.count != 1, "\(input.name)")
      } else {
        #expect(values == nil, "\(input.name) was read as a sequence")
      }
    }
  }

  /// A few accepted inputs read as the values they spell.
  @Test func acceptedInputsReadAsTheirValues() throws {
    func read(_ text: String) throws -> JSONValue { try JSONReader.document(Array(text.utf8)) }
    #expect(try read(#"["\uD801\udc37"]"#) == .array([.string("\u{10437}")]))
    #expect(try read(#"["\u0000"]"#) == .array([.string("\u{0}")]))
    #expect(try read(#"{"k":"first","k":"second"}"#).object?["k"] == .string("second"))
    #expect(try read("[1E+2]") == .array([.number("1E+2")]))
    #expect(try read(#"["\uDD1E\uD834"]"#) == .array([.string("\u{FFFD}\u{FFFD}")]))
    #expect(try read(#"["\/\b\f\n\r\t\"\\"]"#) == .array([.string("/\u{8}\u{C}\n\r\t\"\\")]))
    #expect(try JSONReader.document([0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object(JSONObject(members: [])))
  }

  // MARK: - y_: must accept

  static let yes: [JSONCase] = [
    JSONCase("y_array_arraysWithSpaces", "[[]   ]"),
    JSONCase("y_array_empty-string", #"[""]"#),
    JSONCase("y_array_empty", "[]"),
    JSONCase("y_array_ending_with_newline", "[\"b\"]\n"),
    JSONCase("y_array_false", "[false]"),
    JSONCase("y_array_heterogeneous", #"[null, 7, "7", {}, [], true]"#),
    JSONCase("y_array_null", "[null]"),
    JSONCase("y_array_with_1_and_newline", "[1\n]"),
    JSONCase("y_array_with_leading_space", " [1]"),
    JSONCase("y_array_with_several_null", "[1,null,null,null,2]"),
    JSONCase("y_array_with_trailing_space", "[2] "),
    JSONCase("y_number", "[123e65]"),
    JSONCase("y_number_0e+1", "[0e+1]"),
    JSONCase("y_number_0e1", "[0e1]"),
    JSONCase("y_number_after_space", "[ 4]"),
    JSONCase("y_number_double_close_to_zero", "[-0." + String(repeating: "0", count: 80) + "1]"),
    JSONCase("y_number_int_with_exp", "[20e1]"),
    JSONCase("y_number_minus_zero", "[-0]"),
    JSONCase("y_number_negative_int", "[-123]"),
    JSONCase("y_number_negative_one", "[-1]"),
    JSONCase("y_number_negative_zero", "-0"),
    JSONCase("y_number_real_capital_e", "[1E22]"),
    JSONCase("y_number_real_capital_e_neg_exp", "[1E-2]"),
    JSONCase("y_number_real_capital_e_pos_exp", "[1E+2]"),
    JSONCase("y_number_real_exponent", "[123e45]"),
    JSONCase("y_number_real_fraction_exponent", "[123.456e78]"),
    JSONCase("y_number_real_neg_exp", "[1e-2]"),
    JSONCase("y_number_real_pos_exponent", "[1e+2]"),
    JSONCase("y_number_simple_int", "[123]"),
    JSONCase("y_number_simple_real", "[123.456789]"),
    JSONCase("y_object", #"{"one":"1", "two":"2"}"#),
    JSONCase("y_object_basic", #"{"key":"value"}"#),
    JSONCase("y_object_duplicated_key", #"{"a":"b","a":"c"}"#),
    JSONCase("y_object_duplicated_key_and_value", #"{"a":"b","a":"b"}"#),
    JSONCase("y_object_empty", "{}"),
    JSONCase("y_object_empty_key", #"{"":0}"#),
    JSONCase("y_object_escaped_null_in_key", #"{"foo\u0000bar": 42}"#),
    JSONCase("y_object_extreme_numbers", #"{ "min": -1.0e+28, "max": 1.0e+28 }"#),
    JSONCase(
      "y_object_long_strings",
      #"{"x":[{"id": ""# + String(repeating: "x", count: 4_000) + #""}], "id": ""#
        + String(repeating: "y", count: 4_000) + #""}"#),
    JSONCase("y_object_simple", #"{"a":[]}"#),
    JSONCase("y_object_string_unicode", #"{"city":"\u0421\u0435\u0443\u043b \u0441\u0438\u0442\u0438" }"#),
    JSONCase("y_object_with_newlines", "{\n\"a\": \"b\"\n}"),
    JSONCase("y_string_1_2_3_bytes_UTF-8_sequences", #"["\u0041\u00e9\u20AC"]"#),
    JSONCase("y_string_accepted_surrogate_pair", #"["\uD801\udc37"]"#),
    JSONCase("y_string_accepted_surrogate_pairs", #"["\ud83d\ude00\ud83c\udf89"]"#),
    JSONCase("y_string_allowed_escapes", #"["\"\\\/\b\f\n\r\t"]"#),
    JSONCase("y_string_backslash_and_u_escaped_zero", #"["\\u0000"]"#),
    JSONCase("y_string_backslash_doublequotes", #"["\""]"#),
    JSONCase("y_string_comments", #"["a/*b*/c/*d//e"]"#),
    JSONCase("y_string_double_escape_a", #"["\\a"]"#),
    JSONCase("y_string_double_escape_n", #"["\\n"]"#),
    JSONCase("y_string_escaped_control_character", #"["\u0012"]"#),
    JSONCase("y_string_escaped_noncharacter", #"["\uFFFF"]"#),
    JSONCase("y_string_in_array", #"["word"]"#),
    JSONCase("y_string_in_array_with_leading_space", #"[ "word"]"#),
    JSONCase("y_string_last_surrogates_1_and_2", #"["\uDBFF\uDFFF"]"#),
    JSONCase("y_string_nbsp_uescaped", #"["no\u00A0break"]"#),
    JSONCase("y_string_nonCharacterInUTF-8_U+10FFFF", bytes: [0x5B, 0x22, 0xF4, 0x8F, 0xBF, 0xBF, 0x22, 0x5D]),
    JSONCase("y_string_nonCharacterInUTF-8_U+FFFF", bytes: [0x5B, 0x22, 0xEF, 0xBF, 0xBF, 0x22, 0x5D]),
    JSONCase("y_string_null_escape", #"["\u0000"]"#),
    JSONCase("y_string_one-byte-utf-8", #"["\u002c"]"#),
    JSONCase("y_string_pi", "[\"π\"]"),
    JSONCase("y_string_reservedCharacterInUTF-8_U+1BFFF", bytes: [0x5B, 0x22, 0xF0, 0x9B, 0xBF, 0xBF, 0x22, 0x5D]),
    JSONCase("y_string_simple_ascii", #"["abc "]"#),
    JSONCase("y_string_space", #"" ""#),
    JSONCase("y_string_surrogates_U+1D11E_MUSICAL_SYMBOL_G_CLEF", #"["\uD834\uDd1e"]"#),
    JSONCase("y_string_three-byte-utf-8", #"["\u0821"]"#),
    JSONCase("y_string_two-byte-utf-8", #"["\u0123"]"#),
    JSONCase("y_string_u+2028_line_sep", "[\"\u{2028}\"]"),
    JSONCase("y_string_u+2029_par_sep", "[\"\u{2029}\"]"),
    JSONCase("y_string_uEscape", #"["\u0062\u30af\u30EA"]"#),
    JSONCase("y_string_uescaped_newline", #"["one\u000Atwo"]"#),
    JSONCase("y_string_unescaped_char_delete", "[\"\u{7F}\"]"),
    JSONCase("y_string_unicode", #"["\uA66D"]"#),
    JSONCase("y_string_unicodeEscapedBackslash", #"["\u005C"]"#),
    JSONCase("y_string_unicode_2", "[\"⍂㈴⍂\"]"),
    JSONCase("y_string_unicode_U+10FFFE_nonchar", #"["\uDBFF\uDFFE"]"#),
    JSONCase("y_string_unicode_U+1FFFE_nonchar", #"["\uD83F\uDFFE"]"#),
    JSONCase("y_string_unicode_U+200B_ZERO_WIDTH_SPACE", #"["\u200B"]"#),
    JSONCase("y_string_unicode_U+2064_invisible_plus", #"["\u2064"]"#),
    JSONCase("y_string_unicode_U+FDD0_nonchar", #"["\uFDD0"]"#),
    JSONCase("y_string_unicode_U+FFFE_nonchar", #"["\uFFFE"]"#),
    JSONCase("y_string_unicode_escaped_double_quote", #"["\u0022"]"#),
    JSONCase("y_string_utf8", "[\"€𝄞\"]"),
    JSONCase("y_string_with_del_character", "[\"x\u{7F}y\"]"),
    JSONCase("y_structure_lonely_false", "false"),
    JSONCase("y_structure_lonely_int", "42"),
    JSONCase("y_structure_lonely_negative_real", "-0.1"),
    JSONCase("y_structure_lonely_null", "null"),
    JSONCase("y_structure_lonely_string", #""asd""#),
    JSONCase("y_structure_lonely_true", "true"),
    JSONCase("y_structure_string_empty", #""""#),
    JSONCase("y_structure_trailing_newline", "[\"a\"]\n"),
    JSONCase("y_structure_true_in_array", "[true]"),
    JSONCase("y_structure_whitespace_array", " [] "),
  ]

  // MARK: - n_: must reject

  static let no: [JSONCase] = [
    JSONCase("n_array_1_true_without_comma", "[1 true]"),
    JSONCase("n_array_a_invalid_utf8", "[a~]", byte: 0xE5),
    JSONCase("n_array_colon_instead_of_comma", #"["": 1]"#),
    JSONCase("n_array_comma_after_close", #"[""],"#),
    JSONCase("n_array_comma_and_number", "[,1]"),
    JSONCase("n_array_double_comma", "[1,,2]"),
    JSONCase("n_array_double_extra_comma", #"["x",,]"#),
    JSONCase("n_array_extra_close", #"["x"]]"#),
    JSONCase("n_array_extra_comma", #"["",]"#),
    JSONCase("n_array_incomplete", #"["x""#),
    JSONCase("n_array_incomplete_invalid_value", "[x"),
    JSONCase("n_array_inner_array_no_comma", "[3[4]]"),
    JSONCase("n_array_invalid_utf8", "[~]", byte: 0xFF),
    JSONCase("n_array_items_separated_by_semicolon", "[1:2]"),
    JSONCase("n_array_just_comma", "[,]"),
    JSONCase("n_array_just_minus", "[-]"),
    JSONCase("n_array_missing_value", #"[   , ""]"#),
    JSONCase("n_array_newlines_unclosed", "[\"a\",\n4\n,1,"),
    JSONCase("n_array_number_and_comma", "[1,]"),
    JSONCase("n_array_number_and_several_commas", "[1,,]"),
    JSONCase("n_array_spaces_vertical_tab_formfeed", "[\"\u{0B}a\"\\f]"),
    JSONCase("n_array_star_inside", "[*]"),
    JSONCase("n_array_unclosed", #"["""#),
    JSONCase("n_array_unclosed_trailing_comma", "[1,"),
    JSONCase("n_array_unclosed_with_new_lines", "[1,\n1\n,1"),
    JSONCase("n_array_unclosed_with_object_inside", "[{}"),
    JSONCase("n_incomplete_false", "[fals]"),
    JSONCase("n_incomplete_null", "[nul]"),
    JSONCase("n_incomplete_true", "[tru]"),
    JSONCase("n_multidigit_number_then_00", "123~", byte: 0x00),
    JSONCase("n_number_++", "[++1234]"),
    JSONCase("n_number_+1", "[+1]"),
    JSONCase("n_number_+Inf", "[+Inf]"),
    JSONCase("n_number_-01", "[-01]"),
    JSONCase("n_number_-1.0.", "[-1.0.]"),
    JSONCase("n_number_-2.", "[-2.]"),
    JSONCase("n_number_-NaN", "[-NaN]"),
    JSONCase("n_number_.-1", "[.-1]"),
    JSONCase("n_number_.2e-3", "[.2e-3]"),
    JSONCase("n_number_0.1.2", "[0.1.2]"),
    JSONCase("n_number_0.3e+", "[0.3e+]"),
    JSONCase("n_number_0.3e", "[0.3e]"),
    JSONCase("n_number_0.e1", "[0.e1]"),
    JSONCase("n_number_0_capital_E+", "[0E+]"),
    JSONCase("n_number_0_capital_E", "[0E]"),
    JSONCase("n_number_0e+", "[0e+]"),
    JSONCase("n_number_0e", "[0e]"),
    JSONCase("n_number_1.0e+", "[1.0e+]"),
    JSONCase("n_number_1.0e-", "[1.0e-]"),
    JSONCase("n_number_1.0e", "[1.0e]"),
    JSONCase("n_number_1_000", "[1 000.0]"),
    JSONCase("n_number_1eE2", "[1eE2]"),
    JSONCase("n_number_2.e+3", "[2.e+3]"),
    JSONCase("n_number_2.e-3", "[2.e-3]"),
    JSONCase("n_number_2.e3", "[2.e3]"),
    JSONCase("n_number_9.e+", "[9.e+]"),
    JSONCase("n_number_Inf", "[Inf]"),
    JSONCase("n_number_NaN", "[NaN]"),
    JSONCase("n_number_U+FF11_fullwidth_digit_one", "[\u{FF11}]"),
    JSONCase("n_number_expression", "[1+2]"),
    JSONCase("n_number_hex_1_digit", "[0x1]"),
    JSONCase("n_number_hex_2_digits", "[0x42]"),
    JSONCase("n_number_infinity", "[Infinity]"),
    JSONCase("n_number_invalid+-", "[0e+-1]"),
    JSONCase("n_number_invalid-negative-real", "[-123.123foo]"),
    JSONCase("n_number_invalid-utf-8-in-bigger-int", "[123~]", byte: 0xE5),
    JSONCase("n_number_invalid-utf-8-in-exponent", "[1e1~]", byte: 0xE5),
    JSONCase("n_number_invalid-utf-8-in-int", "[0~]", byte: 0xE5),
    JSONCase("n_number_minus_infinity", "[-Infinity]"),
    JSONCase("n_number_minus_sign_with_trailing_garbage", "[-foo]"),
    JSONCase("n_number_minus_space_1", "[- 1]"),
    JSONCase("n_number_neg_int_starting_with_zero", "[-012]"),
    JSONCase("n_number_neg_real_without_int_part", "[-.123]"),
    JSONCase("n_number_neg_with_garbage_at_end", "[-1x]"),
    JSONCase("n_number_real_garbage_after_e", "[1ea]"),
    JSONCase("n_number_real_with_invalid_utf8_after_e", "[1e~]", byte: 0xE5),
    JSONCase("n_number_real_without_fractional_part", "[1.]"),
    JSONCase("n_number_starting_with_dot", "[.123]"),
    JSONCase("n_number_with_alpha", "[1.2a-3]"),
    JSONCase("n_number_with_alpha_char", "[1.8011670033376514H-308]"),
    JSONCase("n_number_with_leading_zero", "[012]"),
    JSONCase("n_object_bad_value", #"["x", truth]"#),
    JSONCase("n_object_bracket_key", #"{[: "x"}"#),
    JSONCase("n_object_comma_instead_of_colon", #"{"x", null}"#),
    JSONCase("n_object_double_colon", #"{"x"::"b"}"#),
    JSONCase("n_object_emoji", "{🇰🇷}"),
    JSONCase("n_object_garbage_at_end", #"{"a":"a" 123}"#),
    JSONCase("n_object_key_with_single_quotes", "{key: 'value'}"),
    JSONCase("n_object_lone_continuation_byte_in_key_and_trailing_comma", #"{"~":"0",}"#, byte: 0xB9),
    JSONCase("n_object_missing_colon", #"{"a" b}"#),
    JSONCase("n_object_missing_key", #"{:"b"}"#),
    JSONCase("n_object_missing_semicolon", #"{"a" "b"}"#),
    JSONCase("n_object_missing_value", #"{"a":"#),
    JSONCase("n_object_no-colon", #"{"a""#),
    JSONCase("n_object_non_string_key", "{1:1}"),
    JSONCase("n_object_non_string_key_but_huge_number_instead", "{9999E9999:1}"),
    JSONCase("n_object_repeated_null_null", "{null:null,null:null}"),
    JSONCase("n_object_several_trailing_commas", #"{"id":0,,,,,}"#),
    JSONCase("n_object_single_quote", "{'a':0}"),
    JSONCase("n_object_trailing_comma", #"{"id":0,}"#),
    JSONCase("n_object_trailing_comment", #"{"a":"b"}/**/"#),
    JSONCase("n_object_trailing_comment_open", #"{"a":"b"}/**//"#),
    JSONCase("n_object_trailing_comment_slash_open", #"{"a":"b"}//"#),
    JSONCase("n_object_trailing_comment_slash_open_incomplete", #"{"a":"b"}/"#),
    JSONCase("n_object_two_commas_in_a_row", #"{"a":"b",,"c":"d"}"#),
    JSONCase("n_object_unquoted_key", #"{a: "b"}"#),
    JSONCase("n_object_unterminated-value", #"{"a":"a"#),
    JSONCase("n_object_with_single_string", #"{ "foo" : "bar", "a" }"#),
    JSONCase("n_object_with_trailing_garbage", #"{"a":"b"}#"#),
    JSONCase("n_single_space", " "),
    JSONCase("n_string_1_surrogate_then_escape", #"["\uD800\"]"#),
    JSONCase("n_string_1_surrogate_then_escape_u", #"["\uD800\u"]"#),
    JSONCase("n_string_1_surrogate_then_escape_u1", #"["\uD800\u1"]"#),
    JSONCase("n_string_1_surrogate_then_escape_u1x", #"["\uD800\u1x"]"#),
    JSONCase("n_string_accentuated_char_no_quotes", "[é]"),
    JSONCase("n_string_backslash_00", #"["\~"]"#, byte: 0x00),
    JSONCase("n_string_escape_x", #"["\x00"]"#),
    JSONCase("n_string_escaped_backslash_bad", #"["\\\"]"#),
    JSONCase("n_string_escaped_ctrl_char_tab", "[\"\\\t\"]"),
    JSONCase("n_string_escaped_emoji", "[\"\\🌀\"]"),
    JSONCase("n_string_incomplete_escape", #"["\"]"#),
    JSONCase("n_string_incomplete_escaped_character", #"["\u00A"]"#),
    JSONCase("n_string_incomplete_surrogate", #"["\uD834\uDd"]"#),
    JSONCase("n_string_incomplete_surrogate_escape_invalid", #"["\uD800\uD800\x"]"#),
    JSONCase("n_string_invalid-utf-8-in-escape", #"["\u~"]"#, byte: 0xE5),
    JSONCase("n_string_invalid_backslash_esc", #"["\a"]"#),
    JSONCase("n_string_invalid_unicode_escape", #"["\uqqqq"]"#),
    JSONCase("n_string_invalid_utf8_after_escape", #"["\~"]"#, byte: 0xE5),
    JSONCase("n_string_leading_uescaped_thinspace", #"[\u0020"asd"]"#),
    JSONCase("n_string_no_quotes_with_bad_escape", #"[\n]"#),
    JSONCase("n_string_single_doublequote", "\""),
    JSONCase("n_string_single_quote", "['single quote']"),
    JSONCase("n_string_single_string_no_double_quotes", "abc"),
    JSONCase("n_string_start_escape_unclosed", #"["\"#),
    JSONCase("n_string_unescaped_ctrl_char", #"["a~a"]"#, byte: 0x00),
    JSONCase("n_string_unescaped_newline", "[\"new\nline\"]"),
    JSONCase("n_string_unescaped_tab", "[\"\t\"]"),
    JSONCase("n_string_unicode_CapitalU", #""\UA66D""#),
    JSONCase("n_string_with_trailing_garbage", #"""x"#),
    JSONCase("n_structure_100000_opening_arrays", String(repeating: "[", count: 100_000)),
    JSONCase("n_structure_U+2060_word_joined", "[\u{2060}]"),
    JSONCase("n_structure_UTF8_BOM_no_data", bytes: [0xEF, 0xBB, 0xBF]),
    JSONCase("n_structure_angle_bracket_.", "<.>"),
    JSONCase("n_structure_angle_bracket_null", "[<null>]"),
    JSONCase("n_structure_array_trailing_garbage", "[1]x"),
    JSONCase("n_structure_array_with_extra_array_close", "[1]]"),
    JSONCase("n_structure_array_with_unclosed_string", #"["asd]"#),
    JSONCase("n_structure_ascii-unicode-identifier", "aå"),
    JSONCase("n_structure_capitalized_True", "[True]"),
    JSONCase("n_structure_close_unopened_array", "1]"),
    JSONCase("n_structure_comma_instead_of_closing_brace", #"{"x": true,"#),
    JSONCase("n_structure_double_array", "[][]"),
    JSONCase("n_structure_end_array", "]"),
    JSONCase("n_structure_incomplete_UTF8_BOM", bytes: [0xEF, 0xBB, 0x7B, 0x7D]),
    JSONCase("n_structure_lone-invalid-utf-8", bytes: [0xE5]),
    JSONCase("n_structure_lone-open-bracket", "["),
    JSONCase("n_structure_no_data", ""),
    JSONCase("n_structure_null-byte-outside-string", "[~]", byte: 0x00),
    JSONCase("n_structure_number_with_trailing_garbage", "2@"),
    JSONCase("n_structure_object_followed_by_closing_object", "{}}"),
    JSONCase("n_structure_object_unclosed_no_value", #"{"":"#),
    JSONCase("n_structure_object_with_comment", #"{"a":/*comment*/"b"}"#),
    JSONCase("n_structure_object_with_trailing_garbage", #"{"a": true} "x""#),
    JSONCase("n_structure_open_array_apostrophe", "['"),
    JSONCase("n_structure_open_array_comma", "[,"),
    JSONCase("n_structure_open_array_object", String(repeating: #"[{"":"#, count: 50_000) + "\n"),
    JSONCase("n_structure_open_array_open_object", "[{"),
    JSONCase("n_structure_open_array_open_string", #"["a"#),
    JSONCase("n_structure_open_array_string", #"["a""#),
    JSONCase("n_structure_open_object", "{"),
    JSONCase("n_structure_open_object_close_array", "{]"),
    JSONCase("n_structure_open_object_comma", "{,"),
    JSONCase("n_structure_open_object_open_array", "{["),
    JSONCase("n_structure_open_object_open_string", #"{"a"#),
    JSONCase("n_structure_open_object_string_with_apostrophes", "{'a'"),
    JSONCase("n_structure_open_open", #"["\{["\{["\{["\{"#),
    JSONCase("n_structure_single_eacute", bytes: [0xE9]),
    JSONCase("n_structure_single_star", "*"),
    JSONCase("n_structure_trailing_#", #"{"a":"b"}#{}"#),
    JSONCase("n_structure_uescaped_LF_before_string", #"[\u000A""]"#),
    JSONCase("n_structure_unclosed_array", "[1"),
    JSONCase("n_structure_unclosed_array_partial_null", "[ false, nul"),
    JSONCase("n_structure_unclosed_array_unfinished_false", "[ true, fals"),
    JSONCase("n_structure_unclosed_array_unfinished_true", "[ false, tru"),
    JSONCase("n_structure_unclosed_object", #"{"asd":"asd""#),
    JSONCase("n_structure_unicode-identifier", "å"),
    JSONCase("n_structure_whitespace_U+2060_word_joiner", "[1,\u{2060}2]"),
    JSONCase("n_structure_whitespace_formfeed", "[\u{0C}]"),
  ]

  // MARK: - i_: free to choose, must not crash

  static let implementationDefined: [(JSONCase, Bool)] = [
    (JSONCase("i_number_double_huge_neg_exp", "[123.456e-789]"), true),
    (JSONCase("i_number_huge_exp", "[0.4e" + String(repeating: "9", count: 300) + "]"), true),
    (JSONCase("i_number_neg_int_huge_exp", "[-1e+9999]"), true),
    (JSONCase("i_number_pos_double_huge_exp", "[1.5e+9999]"), true),
    (JSONCase("i_number_real_neg_overflow", "[-123123e100000]"), true),
    (JSONCase("i_number_real_pos_overflow", "[123123e100000]"), true),
    (JSONCase("i_number_real_underflow", "[123e-10000000]"), true),
    (JSONCase("i_number_too_big_neg_int", "[-123123123123123123123123123123]"), true),
    (JSONCase("i_number_too_big_pos_int", "[100000000000000000000]"), true),
    (JSONCase("i_number_very_big_negative_int", "[-" + String(repeating: "987654321", count: 6) + "]"), true),
    (JSONCase("i_object_key_lone_2nd_surrogate", #"{"\uDFAA":0}"#), true),
    (JSONCase("i_string_1st_surrogate_but_2nd_missing", #"["\uDADA"]"#), true),
    (JSONCase("i_string_1st_valid_surrogate_2nd_invalid", #"["\uD888\u1234"]"#), true),
    (JSONCase("i_string_UTF-16LE_with_BOM", bytes: [0xFF, 0xFE, 0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D, 0x00]), false),
    (JSONCase("i_string_UTF-8_invalid_sequence", bytes: [0x5B, 0x22, 0xE6, 0x97, 0xA5, 0xD1, 0x88, 0xFA, 0x22, 0x5D]), false),
    (JSONCase("i_string_UTF8_surrogate_U+D800", bytes: [0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]), false),
    (JSONCase("i_string_incomplete_surrogate_and_escape_valid", #"["\uD800\n"]"#), true),
    (JSONCase("i_string_incomplete_surrogate_pair", #"["\uDd1ea"]"#), true),
    (JSONCase("i_string_incomplete_surrogates_escape_valid", #"["\uD800\uD800\n"]"#), true),
    (JSONCase("i_string_invalid_lonely_surrogate", #"["\ud800"]"#), true),
    (JSONCase("i_string_invalid_surrogate", #"["\ud800abc"]"#), true),
    (JSONCase("i_string_invalid_utf-8", #"["~"]"#, byte: 0xFF), false),
    (JSONCase("i_string_inverted_surrogates_U+1D11E", #"["\uDd1e\uD834"]"#), true),
    (JSONCase("i_string_iso_latin_1", #"["caf~"]"#, byte: 0xE9), false),
    (JSONCase("i_string_lone_second_surrogate", #"["\uDFAA"]"#), true),
    (JSONCase("i_string_lone_utf8_continuation_byte", #"["~"]"#, byte: 0x81), false),
    (JSONCase("i_string_not_in_unicode_range", bytes: [0x5B, 0x22, 0xF4, 0xBF, 0xBF, 0xBF, 0x22, 0x5D]), false),
    (JSONCase("i_string_overlong_sequence_2_bytes", bytes: [0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]), false),
    (JSONCase("i_string_overlong_sequence_6_bytes", bytes: [0x5B, 0x22, 0xFC, 0x83, 0xBF, 0xBF, 0xBF, 0xBF, 0x22, 0x5D]), false),
    (JSONCase("i_string_overlong_sequence_6_bytes_null", bytes: [0x5B, 0x22, 0xFC, 0x80, 0x80, 0x80, 0x80, 0x80, 0x22, 0x5D]), false),
    (JSONCase("i_string_truncated-utf-8", bytes: [0x5B, 0x22, 0xE0, 0xFF, 0x22, 0x5D]), false),
    (JSONCase("i_string_utf16BE_no_BOM", bytes: [0x00, 0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D]), false),
    (JSONCase("i_string_utf16LE_no_BOM", bytes: [0x5B, 0x00, 0x22, 0x00, 0xE9, 0x00, 0x22, 0x00, 0x5D, 0x00]), false),
    (JSONCase("i_structure_500_nested_arrays", String(repeating: "[", count: 500) + String(repeating: "]", count: 500)), true),
    (JSONCase("i_structure_UTF-8_BOM_empty_object", bytes: [0xEF, 0xBB, 0xBF, 0x7B, 0x7D]), true),
  ]
}
