import Foundation

/// Field names called like a credential inside a body that cannot be read field by field
/// (not JSON, not a form, not multipart: XML, `key: value` text, a form sent as
/// `text/plain`, a body whose `Content-Type` lies). Redaction cannot know which value
/// such a body pairs with a name, so the leak scan reports the body instead, and
/// `cassette import` (which ends with that scan) refuses it: a cassette never keeps a
/// secret silently. A body that names no credential (`Not Found`, an HTML page about
/// nothing secret) passes.
///
/// A name is a run of ASCII letters, digits, `_` and `-` that a rule names (form, JSON,
/// query or header rules) or that ``CredentialFieldNames`` matches (`password`,
/// `refresh_token`, `oobCode`, `X-Api-Key`, …). Aliases (`<PASSWORD_1>`) are skipped:
/// they are what redaction leaves.
enum CredentialNamesInText {
  /// The longest name quoted in a report; longer ones (which may be values) are not shown.
  static let longestQuotedName = 24

  /// The credential-like names in `text`, in order of first appearance, each once.
  static func names(in text: String, rules: RedactionRules) -> [String] {
    var found: [String] = []
    var seen: Set<String> = []
    let bytes = Array(text.utf8)
    var index = 0
    while index < bytes.count {
      // An alias `<NAME_1>` is skipped whole.
      if bytes[index] == UInt8(ascii: "<"), let close = aliasEnd(bytes, from: index) {
        index = close
        continue
      }
      guard isNameByte(bytes[index]) else {
        index += 1
        continue
      }
      var end = index
      while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
      let name = String(decoding: bytes[index..<end], as: UTF8.self)
      index = end
      guard name.utf8.count <= 128, !seen.contains(name.lowercased()) else { continue }
      if isCredentialName(name, rules: rules) {
        seen.insert(name.lowercased())
        found.append(name)
      }
    }
    return found
  }

  /// `true` when a rule names `name` or it is called like a credential.
  static func isCredentialName(_ name: String, rules: RedactionRules) -> Bool {
    isRuleNamed(name, rules: rules) || CredentialFieldNames.rule(for: name) != nil
  }

  /// `name` quoted for a report when a rule names it (`password`), else a description: a
  /// name matched only by a fragment (`Form0nlyPassw0rd`) may be the secret itself.
  static func quoted(_ name: String, rules: RedactionRules) -> String {
    isRuleNamed(name, rules: rules) && name.count <= longestQuotedName
      ? "`\(name)`" : "a credential-like name"
  }

  /// `true` when a form, JSON, query or request-header rule names `name`.
  private static func isRuleNamed(_ name: String, rules: RedactionRules) -> Bool {
    [rules.formFields, rules.jsonFields, rules.queryParameters, rules.requestHeaders].contains {
      list in list.contains { rule in rule.names(name) }
    }
  }

  private static func isNameByte(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
      || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
  }

  /// The index after the `>` of an alias starting at `start`, else `nil`.
  private static func aliasEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    var index = start + 1
    while index < bytes.count, index - start <= 128 {
      let byte = bytes[index]
      if byte == UInt8(ascii: ">") { return index - start >= 2 ? index + 1 : nil }
      guard (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
      else { return nil }
      index += 1
    }
    return nil
  }
}
