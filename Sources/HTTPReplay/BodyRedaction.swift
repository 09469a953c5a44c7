import Foundation

/// Body redaction: a body read as ``BodyType`` says, JSON field by field (at any depth,
/// JSON carried in strings too), multipart part by part (``redactMultipart(_:rules:)``),
/// a form pair by pair, text for secret shapes and values already aliased.
extension AliasTable {
  /// `body` redacted as what it is (``BodyType``, read by `contentType`).
  mutating func redactBody(_ body: Data, contentType: String?, rules: RedactionRules) -> Data {
    guard !body.isEmpty else { return body }
    switch BodyType.read(body, mediaType: contentType ?? "") {
    case .json(let json):
      let redacted = redactJSON(json, rules: rules)
      return BodyCoding.compactJSON(redacted) ?? body
    case .multipart(let multipart):
      // Part headers (a `filename`) are free text: known values and shapes go there too.
      let redacted = redactMultipart(multipart, rules: rules)
      return String(data: redacted, encoding: .utf8).map { Data(redactText($0).utf8) } ?? redacted
    case .form(let text):
      return Data(redactPairs(text, rules: rules.formFields, plusIsSpace: true).utf8)
    case .text(let text):
      return Data(redactString(text, queryRules: EmbeddedURL.itemRules(rules)).utf8)
    case .binary:
      return body
    }
  }

  /// `value` (parsed JSON) with the JSON rules applied to every key at any depth, a key
  /// no rule names but called like a credential (``CredentialFieldNames``) aliased as a
  /// form field or query parameter would be, and the query items of a URL in a string
  /// redacted as a request's (``redactString(_:queryRules:)``).
  mutating func redactJSON(_ value: Any, rules: RedactionRules) -> Any {
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      for key in object.keys.sorted() {
        guard let child = object[key] else { continue }
        if let rule = rules.jsonFields.first(where: { $0.names(key) })
          ?? CredentialFieldNames.rule(for: key, inJSON: true)
        {
          if rule.kind == .remove { continue }
          if let string = child as? String {
            if let replaced = apply(rule, to: string) { result[key] = replaced }
            continue
          }
          if rule.kind == .constant {
            result[key] = rule.label
            continue
          }
        }
        // A secret used as an object key (`{"<session token>": …}`) is replaced too.
        result[key.count >= 8 ? redactText(key) : key] = redactJSON(child, rules: rules)
      }
      return result
    }
    if let array = value as? [Any] { return array.map { redactJSON($0, rules: rules) } }
    if let string = value as? String {
      // JSON carried as a string (`"body": "{\"idToken\": …}"`): redact it as JSON.
      if let nested = BodyCoding.jsonObject(Data(string.utf8), mediaType: ""),
        let data = BodyCoding.compactJSON(redactJSON(nested, rules: rules)),
        let text = String(data: data, encoding: .utf8)
      {
        return text == BodyCoding.compactJSON(nested).flatMap({ String(data: $0, encoding: .utf8) })
          ? string : text
      }
      return redactString(string, queryRules: EmbeddedURL.itemRules(rules))
    }
    return value
  }

  /// `text` redacted as free text (``redactText(_:)``), except that when it is an absolute
  /// URL with a query or fragment (``EmbeddedURL``: an `oobLink`, a `redirect_uri`), their
  /// `name=value` items are redacted as a request's query: by `queryRules`, else by
  /// ``CredentialFieldNames``; a value that is itself such a URL the same way.
  mutating func redactString(_ text: String, queryRules: [RedactionRule]) -> String {
    guard let url = EmbeddedURL(text) else { return redactText(text) }
    var result = redactText(String(url.head))
    if let query = url.query {
      result += "?" + redactPairs(String(query), rules: queryRules, plusIsSpace: false)
    }
    if let fragment = url.fragment {
      result +=
        "#"
        + (fragment.contains("=")
          ? redactPairs(String(fragment), rules: queryRules, plusIsSpace: false)
          : redactText(String(fragment)))
    }
    return result
  }
}
