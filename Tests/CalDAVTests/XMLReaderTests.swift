import CalDAV
import Foundation
import Testing

/// The hand-written XML reader: what DAV servers send is read, by namespace URI; anything that
/// could declare or expand an entity, and anything past its caps, is refused.
@Suite struct XMLReaderTests {
  @Test func namespaces_areResolvedByURI_notByPrefix() throws {
    let documents = [
      #"<D:multistatus xmlns:D="DAV:"><D:response><D:href>/a</D:href></D:response></D:multistatus>"#,
      #"<ns0:multistatus xmlns:ns0="DAV:"><ns0:response><ns0:href>/a</ns0:href></ns0:response></ns0:multistatus>"#,
      #"<multistatus xmlns="DAV:"><response><href>/a</href></response></multistatus>"#,
      #"<x:multistatus xmlns:x="DAV:"><response xmlns="DAV:"><x:href>/a</x:href></response></x:multistatus>"#,
    ]
    for document in documents {
      let root = try XMLReader().parse(document)
      #expect(root.is("DAV:", "multistatus"), "\(document)")
      #expect(root.child("DAV:", "response")?.child("DAV:", "href")?.text == "/a", "\(document)")
    }
    // The same prefix bound to another URI is another element.
    let other = try XMLReader().parse(#"<D:multistatus xmlns:D="urn:not-dav"/>"#)
    #expect(!other.is("DAV:", "multistatus"))
    #expect(other.namespace == "urn:not-dav")
    // A prefix redeclared inside wins there only.
    let nested = try XMLReader().parse(#"<D:a xmlns:D="DAV:"><D:b xmlns:D="urn:x"/><D:c/></D:a>"#)
    #expect(nested.children.map(\.namespace) == ["urn:x", "DAV:"])
  }

  @Test(arguments: [
    ("<a>&lt;&gt;&amp;&quot;&apos;</a>", "<>&\"'"),
    ("<a>&#65;&#x42;&#X43;&#x1F600;</a>", "ABC😀"),
    ("<a><![CDATA[BEGIN:VTODO\r\n<x>&amp;]]></a>", "BEGIN:VTODO\r\n<x>&amp;"),
    ("<a>x<!-- a comment -->y<?pi z?>z</a>", "xyz"),
    ("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- c --><a>é</a>\n", "é"),
  ])
  func text_decodesEntitiesCDATAAndReferences(_ document: String, _ expected: String) throws {
    #expect(try XMLReader().parse(document).text == expected)
  }

  @Test func attributes_areReadByLocalName() throws {
    let root = try XMLReader().parse(
      #"<C:set xmlns:C="urn:ietf:params:xml:ns:caldav"><C:comp name="VTODO"/><C:comp name='VEVENT' /></C:set>"#)
    #expect(root.children.compactMap { $0.attributes["name"] } == ["VTODO", "VEVENT"])
  }

  @Test(arguments: [
    ("<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>", "DOCTYPE"),
    ("<!DOCTYPE a><a/>", "DOCTYPE"),
    ("<a><!DOCTYPE b></a>", "DOCTYPE"),
    ("<a>&x;</a>", "entity"),
    ("<a>&nbsp;</a>", "entity"),
    ("<a>&#0;</a>", "character reference"),
    ("<a>&#xD800;</a>", "character reference"),
    ("<a>&#x110000;</a>", "character reference"),
    ("<a>&amp</a>", "reference"),
    ("<a></b>", "closes"),
    ("<a>", "unterminated"),
    ("<p:a/>", "undeclared"),
    ("<a/><b/>", "after the root"),
    ("", "no root"),
    ("<a b=c/>", "quoted"),
    ("<a b=\"<\"/>", "attribute"),
    ("<a>\u{FF}</a>", ""),
  ])
  func refused(_ document: String, _ reason: String) {
    var data = Data(document.utf8)
    if document == "<a>\u{FF}</a>" { data = Data([0x3C, 0x61, 0x3E, 0xFF, 0x3C, 0x2F, 0x61, 0x3E]) }  // invalid UTF-8
    #expect {
      try XMLReader().parse(data)
    } throws: { error in
      guard let error = error as? XMLError else { return false }
      return reason.isEmpty ? error.reason.contains("UTF-8") : error.reason.contains(reason)
    }
  }

  @Test func caps_onBytesDepthAndElements() throws {
    let deep = String(repeating: "<a>", count: 65) + String(repeating: "</a>", count: 65)
    #expect(throws: XMLError.self) { try XMLReader().parse(deep) }
    let fine = String(repeating: "<a>", count: 64) + String(repeating: "</a>", count: 64)
    #expect(try XMLReader().parse(fine).name == "a")
    #expect(throws: XMLError.self) { try XMLReader(maxBytes: 10).parse("<a>0123456789</a>") }
    let many = "<a>" + String(repeating: "<b/>", count: 10) + "</a>"
    #expect(throws: XMLError.self) { try XMLReader(maxElements: 10).parse(many) }
    #expect(try XMLReader(maxElements: 11).parse(many).children.count == 10)
  }
}
