import BackendHTTP
import UserBackendKit
import Foundation

/// Applies ``RedactionRules`` to requests and responses with one alias table, so the same
/// secret value always becomes the same alias (`<REFRESH_TOKEN_1>`, numbered per category by
/// first appearance) and a token that comes out of a response and goes back into a request
/// still matches.
///
/// Redaction is idempotent: values that already look like aliases (`<NAME_1>`, `<NAME>`),
/// values this redactor produced, and unsigned JWTs in the normal form it writes are left as
/// they are. That is what lets
/// replay apply the cassette's rules to live requests, whose tokens are the redacted values
/// that replayed responses handed out.
///
/// A signed JWT becomes an unsigned one (`alg: none`, empty signature) with the same claim
/// names; claims named in ``RedactionRules/jwtClaims`` are aliased, values already aliased
/// elsewhere are replaced by their alias, and `exp`/`iat`/`nbf`/`auth_time` move by
/// `timeShift` seconds (so they stay relative to the cassette clock).
public final class Redactor: Sendable {
  /// The rules applied.
  public let rules: RedactionRules
  private let state: LockedValue<AliasTable>

  /// A redactor with an empty alias table.
  /// - Parameters:
  ///   - timeShift: seconds added to JWT time claims (cassette clock minus the real time
  ///     the recording started); 0 keeps them.
  ///   - knownAliases: live value -> alias pairs to start from (e.g. the fake API key a
  ///     replay harness uses -> `<FIREBASE_API_KEY_1>`).
  public init(
    rules: RedactionRules, timeShift: TimeInterval = 0, knownAliases: [String: String] = [:]
  ) {
    self.rules = rules
    var table = AliasTable(timeShift: timeShift, jwtClaims: rules.jwtClaims)
    for (value, alias) in knownAliases.sorted(by: { $0.value < $1.value }) {
      table.seed(value: value, alias: alias)
    }
    state = LockedValue(table)
  }

  /// The request with every rule applied: query parameters (in the URL), header fields
  /// (only those ``RedactionRules/requestHeaderAllowList`` keeps or a rule names; removed
  /// ones dropped; a kept one called like a credential aliased; cookies and proxy credentials always, as are the URL's user
  /// information and fragment: ``NeverStoredParts``), JSON, form and multipart body fields
  /// (the body read as ``BodyType`` says), secret
  /// shapes (API keys, refresh tokens, JWTs) anywhere, and values already aliased wherever
  /// they appear. Values are
  /// compared decoded: percent-encoding in the path, query and form bodies, JSON escapes,
  /// and gzip/deflate content codings (the body is stored decoded, without
  /// `Content-Encoding`/`Content-Length`).
  public func redact(_ request: HTTPRequest) -> HTTPRequest {
    state.withLock { table in
      var result = request
      let (body, decodedFields) = Self.decodedBody(request.body, fields: request.headerFields)
      result.url = table.redactURL(request.url, rules: rules)
      var fields = HTTPFields()
      let kept = Set(
        (rules.requestHeaderAllowList + rules.matchHeaders + ["Content-Type"]).map {
          $0.lowercased()
        })
      for field in decodedFields where !NeverStoredParts.isNeverStoredHeader(field.name) {
        let named = rules.requestHeaders.first { $0.names(field.name) }
        // A header no rule names and no list keeps is dropped: it may hold a credential.
        guard named != nil || kept.contains(field.name.lowercased()) else { continue }
        // A kept one called like a credential (`X-Api-Token`) gets an alias: a list keeps
        // the field, never its secret.
        let rule = named ?? CredentialFieldNames.rule(for: field.name)
        if let value = table.redactHeader(field.value, rule: rule) {
          fields.append(name: table.redactText(field.name), value: value)
        }
      }
      result.headerFields = fields
      result.body = table.redactBody(
        body, contentType: decodedFields["Content-Type"], rules: rules)
      return result
    }
  }

  /// The response with only allow-listed header fields (values redacted; `Set-Cookie` never,
  /// even when allow-listed; `Location` without user information) and the body redacted
  /// like a request body.
  public func redact(_ response: HTTPResponse) -> HTTPResponse {
    state.withLock { table in
      var result = response
      let (body, decodedFields) = Self.decodedBody(response.body, fields: response.headerFields)
      // An undecodable body keeps its `Content-Encoding`, so the cassette stays faithful
      // and the leak scan reports the body it cannot read.
      let allowed = Set(
        (rules.responseHeaderAllowList + ["Content-Encoding"]).map { $0.lowercased() })
      var fields = HTTPFields()
      for field in decodedFields
      where allowed.contains(field.name.lowercased())
        && !NeverStoredParts.isNeverStoredHeader(field.name)
      {
        let value =
          field.name.lowercased() == "location"
          ? NeverStoredParts.strippingUserInformation(field.value) : field.value
        // A redirect to `app://callback?code=…` carries its credentials in the query.
        fields.append(
          name: field.name,
          value: table.redactString(value, queryRules: EmbeddedURL.itemRules(rules)))
      }
      result.headerFields = fields
      result.body = table.redactBody(
        body, contentType: decodedFields["Content-Type"], rules: rules)
      return result
    }
  }

  /// `text` with every signed JWT replaced and every already-aliased value swapped for its
  /// alias (for variables and free text).
  public func redactText(_ text: String) -> String {
    state.withLock { $0.redactText(text) }
  }

  /// `body` decoded from its content codings (gzip, deflate) with `Content-Encoding` and
  /// `Content-Length` removed; unchanged (header kept) when it cannot be decoded.
  static func decodedBody(_ body: Data, fields: HTTPFields) -> (Data, HTTPFields) {
    (try? ContentCoding.decoded(body, fields: fields)) ?? (body, fields)
  }

  /// The alias of exactly `value` when it was aliased before, else ``redactText(_:)``
  /// (for variables, whose values may be short secrets such as passwords).
  public func redactValue(_ value: String) -> String {
    state.withLock { $0.byValue[value] ?? $0.redactText(value) }
  }

  /// The aliases handed out so far, sorted (never the values they stand for).
  public var aliases: [String] {
    state.withLock { Array(Set($0.byValue.values)).sorted() }
  }
}

/// `true` for `<NAME>` or `<NAME_1>`: upper-case letters, digits and `_` in angle brackets.
func isAliasShaped(_ value: String) -> Bool {
  let scalars = value.unicodeScalars
  guard scalars.count >= 3, scalars.first == "<", scalars.last == ">" else { return false }
  return scalars.dropFirst().dropLast().allSatisfy {
    ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_"
  }
}

/// The mutable alias table behind a ``Redactor`` (always used under its lock).
struct AliasTable {
  var byValue: [String: String] = [:]
  /// The values of `byValue` that are JWTs (their replacement is rebuilt on each sight).
  var jwtValues: Set<String> = []
  var counters: [String: Int] = [:]
  var outputs: Set<String> = []
  /// ``encodedForms(of:)`` of each aliased value, made once: redacting free text tries
  /// every form of every alias, and building them each time cost an import of 1,000
  /// entries most of its time.
  var formsCache: [String: [String]] = [:]
  let timeShift: TimeInterval
  let jwtClaims: [RedactionRule]

  init(timeShift: TimeInterval, jwtClaims: [RedactionRule]) {
    self.timeShift = timeShift
    self.jwtClaims = jwtClaims
  }

  mutating func seed(value: String, alias: String) {
    byValue[value] = alias
    outputs.insert(alias)
    guard isAliasShaped(alias), let underscore = alias.lastIndex(of: "_") else { return }
    let category = String(alias.dropFirst().prefix(upTo: underscore))
    if let number = Int(alias[alias.index(after: underscore)...].dropLast()) {
      counters[category] = max(counters[category] ?? 0, number)
    }
  }

  /// The alias for `value` in `category`, creating it on first sight.
  mutating func alias(_ value: String, category: String) -> String {
    if value.isEmpty || isAliasShaped(value) || outputs.contains(value) { return value }
    if let existing = byValue[value], !jwtValues.contains(value) { return existing }
    if let token = try? JSONWebToken(parsing: value) {
      // An unsigned JWT is normalised too (its header and secret claims replaced); one
      // already in the normal form (this redactor's output, the emulator's tokens) stays.
      if token.signature.isEmpty,
        SecretShapes.isRedactedUnsignedJWT(value, jwtClaims: jwtClaims)
      {
        return value
      }
      // Rebuilt on every sight, not cached: a claim may hold a value that a rule marks
      // only later in the file (the importer's second pass then knows it).
      let replacement = replaceJWT(token)
      byValue[value] = replacement
      jwtValues.insert(value)
      outputs.insert(replacement)
      return replacement
    }
    let number = (counters[category] ?? 0) + 1
    counters[category] = number
    let alias = "<\(category)_\(number)>"
    byValue[value] = alias
    outputs.insert(alias)
    return alias
  }

  /// Applies one rule to `value`; `nil` means "drop the field".
  mutating func apply(_ rule: RedactionRule, to value: String) -> String? {
    switch rule.kind {
    case .remove: return nil
    case .constant: return rule.label
    case .alias: return alias(value, category: rule.label)
    }
  }

  mutating func redactHeader(_ value: String, rule: RedactionRule?) -> String? {
    guard let rule else { return redactText(value) }
    guard rule.kind == .alias else { return apply(rule, to: value) }
    // `Bearer X`, `Basic X`: keep the scheme, alias the credential.
    if let space = value.firstIndex(of: " "),
      value[..<space].allSatisfy({ $0.isLetter }), !value[..<space].isEmpty
    {
      let credential = value[value.index(after: space)...].trimmingCharacters(in: .whitespaces)
      return "\(value[..<space]) " + alias(credential, category: rule.label)
    }
    return alias(value, category: rule.label)
  }

  mutating func redactURL(_ url: URL, rules: RedactionRules) -> URL {
    guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
      return url
    }
    // Path segments are compared decoded, so a percent-encoded token is found too. A
    // segment's parameters (`;jsessionid=…`) are what logs redact as unreadable
    // (`LoggedRequestTarget`): each value, or a parameter without `=`, becomes an alias.
    let segments = components.percentEncodedPath.split(
      separator: "/", omittingEmptySubsequences: false)
    let path = segments.map { raw -> String in
      let parameters = URLSecretParts.segmentParameters(raw)
      let head = parameters.map { raw[..<raw.index(before: $0.startIndex)] } ?? raw
      let decoded = FormURLEncoding.decode(head, plusIsSpace: false)
      let redacted = redactText(decoded)
      var result = redacted == decoded ? String(head) : FormURLEncoding.escape(redacted)
      if let parameters {
        result +=
          ";"
          + parameters.split(separator: ";", omittingEmptySubsequences: false).map {
            aliasURLParameter($0)
          }.joined(separator: ";")
      }
      return result
    }.joined(separator: "/")
    if path != components.percentEncodedPath { components.percentEncodedPath = path }
    if let query = components.percentEncodedQuery {
      let redacted = redactPairs(
        query, rules: rules.queryParameters, plusIsSpace: false, isQuery: true)
      components.percentEncodedQuery = redacted.isEmpty ? nil : redacted
    }
    // User information and the fragment are never stored (`NeverStoredParts`).
    components.percentEncodedUser = nil
    components.percentEncodedPassword = nil
    components.percentEncodedFragment = nil
    return components.url ?? NeverStoredParts.strippingURL(url)
  }

  /// A path-segment parameter or a bare query item (`LoggedRequestTarget`): `name=value`
  /// with the value aliased, or the whole item aliased when it has no `=`; empty stays.
  mutating func aliasURLParameter(_ item: Substring) -> String {
    let equals = item.firstIndex(of: "=")
    let raw = equals.map { item[item.index(after: $0)...] } ?? item
    let value = FormURLEncoding.decode(raw, plusIsSpace: false)
    guard !value.isEmpty else { return String(item) }
    let aliased = alias(value, category: "URL_PARAMETER")
    let encoded = aliased == value ? String(raw) : FormURLEncoding.escape(aliased)
    return equals.map { String(item[...$0]) + encoded } ?? encoded
  }

  /// Redacts `name=value&…` text (a query or a form body), re-encoding only changed values.
  /// In a query (`isQuery`), an item without `=` is aliased whole, as logs redact it.
  mutating func redactPairs(
    _ text: String, rules: [RedactionRule], plusIsSpace: Bool, isQuery: Bool = false
  ) -> String {
    var parts: [String] = []
    for pair in text.split(separator: "&", omittingEmptySubsequences: false) {
      if isQuery, URLSecretParts.isBareQueryItem(pair) {
        parts.append(aliasURLParameter(pair))
        continue
      }
      guard let equals = pair.firstIndex(of: "=") else {
        let decoded = FormURLEncoding.decode(String(pair), plusIsSpace: plusIsSpace)
        let redacted = redactText(decoded)
        parts.append(redacted == decoded ? String(pair) : FormURLEncoding.escape(redacted))
        continue
      }
      let rawName = String(pair[..<equals])
      let rawValue = String(pair[pair.index(after: equals)...])
      let name = FormURLEncoding.decode(rawName, plusIsSpace: plusIsSpace)
      let value = FormURLEncoding.decode(rawValue, plusIsSpace: plusIsSpace)
      let newValue: String?
      if let rule = rules.first(where: { $0.names(name) }) ?? CredentialFieldNames.rule(for: name) {
        newValue = apply(rule, to: value)
      } else {
        newValue = redactString(value, queryRules: rules)
      }
      guard let newValue else { continue }
      // A secret used as a name (`?<token>=1`) is replaced like a value.
      let newName = redactText(name)
      let namePart = newName == name ? rawName : FormURLEncoding.escape(newName)
      parts.append(
        newValue == value && newName == name
          ? String(pair) : namePart + "=" + FormURLEncoding.escape(newValue))
    }
    return parts.joined(separator: "&")
  }

  /// Replaces signed JWTs and already-aliased values inside free text.
  mutating func redactText(_ text: String) -> String {
    var result = text
    for (kind, range) in SecretShapes.find(in: result, jwtClaims: jwtClaims).reversed() {
      let token = String(result[range])
      result.replaceSubrange(range, with: alias(token, category: kind.category))
    }
    guard !byValue.isEmpty, result.count >= 8 else { return result }
    for (value, alias) in byValue.sorted(by: { $0.key.count > $1.key.count })
    where value.count >= 8 {
      let forms: [String]
      if let cached = formsCache[value] {
        forms = cached
      } else {
        forms = Self.encodedForms(of: value)
        formsCache[value] = forms
      }
      for form in forms where result.contains(form) {
        result = result.replacingOccurrences(of: form, with: alias)
      }
    }
    return result
  }

  /// `value` as it can stand in text: the forms ``LeakScanner`` looks for (raw,
  /// percent-encoded, JSON-escaped, base64, base64url, hex, HTML character references), so
  /// what the scan would find is what redaction replaces.
  static func encodedForms(of value: String) -> [String] {
    LeakScanner.forms(of: value).map { String(decoding: $0.1, as: UTF8.self) }
  }

  /// An unsigned JWT with the same claim names as `token`.
  mutating func replaceJWT(_ token: JSONWebToken) -> String {
    let claims = (try? JSONSerialization.jsonObject(with: token.payload)) as? [String: Any] ?? [:]
    let header = (try? JSONSerialization.jsonObject(with: token.header)) as? [String: Any] ?? [:]
    var newClaims: [String: Any] = [:]
    for key in claims.keys.sorted() {
      guard let value = claims[key] else { continue }
      newClaims[key] = replaceClaim(key, value)
    }
    return JSONWebToken.unsigned(
      claims: newClaims, header: ["alg": "none", "typ": header["typ"] as? String ?? "JWT"])
  }

  static let timeClaims: Set<String> = ["exp", "iat", "nbf", "auth_time"]

  private mutating func replaceClaim(_ key: String, _ value: Any) -> Any {
    if Self.timeClaims.contains(key), let number = value as? NSNumber, !isJSONBool(value) {
      // A server-sent claim may be any number (1e300, a huge integer): never trap on it.
      return Int(exactly: (number.doubleValue + timeShift).rounded()) ?? value
    }
    if let string = value as? String {
      if let rule = jwtClaims.first(where: { $0.names(key) }) {
        return apply(rule, to: string) ?? ""
      }
      return redactText(string)
    }
    if let object = value as? [String: Any] {
      var result: [String: Any] = [:]
      for (childKey, child) in object { result[childKey] = replaceClaim(childKey, child) }
      return result
    }
    if let array = value as? [Any] { return array.map { replaceClaim(key, $0) } }
    return value
  }
}
