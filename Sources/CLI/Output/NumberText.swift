/// `12345` → `12,345`.
func group(_ number: Int) -> String {
  let digits = String(number.magnitude)
  var result = ""
  for (index, character) in digits.enumerated() {
    if index > 0 && (digits.count - index) % 3 == 0 { result += "," }
    result.append(character)
  }
  return (number < 0 ? "-" : "") + result
}
