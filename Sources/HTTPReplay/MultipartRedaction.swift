import Foundation

extension AliasTable {
  /// The rule for a multipart part or form field called `name`: the form rules, then the
  /// JSON rules (a part carries what a JSON body would), then ``CredentialFieldNames``.
  static func partRule(_ name: String, rules: RedactionRules) -> RedactionRule? {
    rules.formFields.first { $0.names(name) } ?? rules.jsonFields.first { $0.names(name) }
      ?? CredentialFieldNames.rule(for: name)
  }

  /// `body` with each part's value redacted: a part whose name a rule names (or that is
  /// called like a credential) by that rule (a `remove` rule empties the value, keeping
  /// the framing), any other part as a body of its own `Content-Type` (JSON, form, nested
  /// multipart, text). Boundaries, part headers and line breaks stay byte for byte.
  mutating func redactMultipart(_ body: MultipartFormData, rules: RedactionRules) -> Data {
    body.replacingValues { part, value in
      if let name = part.name, let rule = Self.partRule(name, rules: rules) {
        return Data((apply(rule, to: String(decoding: value, as: UTF8.self)) ?? "").utf8)
      }
      return redactBody(value, contentType: part.contentType, rules: rules)
    }
  }
}
