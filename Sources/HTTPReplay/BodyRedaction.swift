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
      let redacted = redactJSON(json, rules: rules.jsonFields)
      return BodyCoding.compactJSON(redacted) ?? body
    case .multipart(let multipart):
      // Part headers (a `filename`) are free text: known values and shapes go there too.
      let redacted = redactMultipart(multipart, rules: rules)
      return String(data: redacted, encoding: .utf8).map { Data(redactText($0).utf8) } ?? redacted
    case .form(let text):
      return Data(redactPairs(text, rules: rules.formFields, plusIsSpace: true).utf8)
    case .text(let text):
      return Data(redactText(text).utf8)
    case .binary:
      return body
    }
  }

  /// `value` (parsed JSON) with the rules applied to every key at any depth.
  mutating func redactJSON(_ value: Any, rules: [RedactionRule]) -> Any {
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      for key in object.keys.sorted() {
        guard let child = object[key] else { continue }
        if let rule = rules.first(where: { $0.names(key) }) {
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
      return redactText(string)
    }
    return value
  }
}
