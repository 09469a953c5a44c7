import Foundation
import Testing

@testable import HTTPReplay

/// ``BodyType``: the media type rule and the one order bodies are read in.
@Suite("HTTPReplay: BodyType", .timeLimit(.minutes(1)))
struct BodyTypeReadingTests {
  @Test(
    "the header when it says something, else the declared type",
    arguments: [
      (String?.none, "application/json", "application/json"),
      ("text/plain", "application/json", "text/plain"),
      (" ", "application/x-www-form-urlencoded", "application/x-www-form-urlencoded"),
      ("", "", ""),
    ])
  func mediaType(header: String?, declared: String, expected: String) {
    #expect(BodyType.mediaType(header: header, declared: declared) == expected)
  }

  @Test("JSON, multipart, form, text and bytes, in that order")
  func reading() {
    let json = BodyType.read(Data(#"{"a":1}"#.utf8), mediaType: "application/x-www-form-urlencoded")
    guard case .json = json else { Issue.record("\(json)"); return }
    let multipart = BodyType.read(
      Data("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b--\r\n".utf8),
      mediaType: "application/x-www-form-urlencoded")
    guard case .multipart = multipart else { Issue.record("\(multipart)"); return }
    let form = BodyType.read(Data("a=1".utf8), mediaType: "Application/X-WWW-Form-Urlencoded")
    guard case .form("a=1") = form else { Issue.record("\(form)"); return }
    let text = BodyType.read(Data("a=1".utf8), mediaType: "text/plain")
    guard case .text("a=1") = text else { Issue.record("\(text)"); return }
    let bytes = BodyType.read(Data([0xFF, 0xFE]), mediaType: "")
    guard case .binary = bytes else { Issue.record("\(bytes)"); return }
  }
}
