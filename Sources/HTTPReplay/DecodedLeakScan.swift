import BackendHTTP
import Foundation

/// The leak scan on decoded values: walks a parsed cassette or HAR file and looks at each
/// value the way a server would read it, with JSON escapes, percent-encoding (URL path,
/// query, form bodies), base64 bodies (`encoding: "base64"`) and gzip/deflate content
/// codings undone. Complements ``LeakScanner``, which looks at the file's bytes.
///
/// Reports:
/// - secret shapes in any string (``SecretShapes``: API keys, refresh tokens, signed JWTs,
///   unsigned JWTs not in redacted form);
/// - configured secrets (API keys, passwords, …) in any decoded string;
/// - a field the rules name (`password`, `refreshToken`, `sessionToken`, `oobCode`, the
///   `key` query parameter, `X-NCMB-Apps-Session-Token`, …) holding anything but an alias
///   (`<NAME_1>`), its constant, or a redacted unsigned JWT;
/// - a body whose content coding cannot be decoded (it cannot be checked);
/// - what a cassette never holds (``NeverStoredParts``): user information or a fragment
///   in a request URL, user information in a redirect (`Location`, `redirectURL`), a
///   `Cookie`, `Set-Cookie` or `Proxy-Authorization` header field, a non-empty HAR
///   `cookies` list.
enum DecodedLeakScan {
  /// One problem: where (a field path) and what (never the value).
  struct Problem: Hashable, CustomStringConvertible {
    var path: String
    var message: String
    var description: String { "\(path): \(message)" }
  }

  /// Problems in the parsed HAR `root`, checked against `fallbackRules` plus the file's own
  /// `_replay.rules`. A file's rules can only add fields to check: for a field both name,
  /// the built-in rule wins, so a cassette cannot exempt its own secrets (an empty rule
  /// set, a `remove` or a `constant` rule for `password`).
  /// - Parameter skippingBodies: body texts (`log.entries[3].response.content.text`) not
  ///   to decode or read: those ``DecodedSizeSurvey`` refused and reported already.
  static func scan(
    _ root: Any, secrets: [String], fallbackRules: RedactionRules = .standard,
    skippingBodies: Set<String> = []
  ) -> [Problem] {
    var scanner = Walker(
      secrets: secrets.filter { $0.utf8.count >= LeakScanner.minimumSecretLength },
      rules: fallbackRules)
    scanner.skipped = skippingBodies
    guard let log = (root as? [String: Any])?["log"] as? [String: Any] else { return [] }
    if let replay = log["_replay"] as? [String: Any] {
      if let rules = replay["rules"],
        let data = try? JSONSerialization.data(withJSONObject: rules),
        let decoded = try? JSONDecoder().decode(RedactionRules.self, from: data)
      {
        // The built-in rules of the cassette's own backend (NCMB's error `code` is not
        // Firebase's SMS `code`), else `fallbackRules`.
        let builtIn: RedactionRules =
          switch replay["backend"] as? String {
          case "firebase": .firebase
          case "ncmb": .ncmb
          default: fallbackRules
          }
        scanner.rules = builtIn.merged(with: decoded)
      }
      for (key, value) in replay where key != "rules" { scanner.any(value, "log._replay.\(key)") }
    }
    for (index, item) in (log["entries"] as? [Any] ?? []).enumerated() {
      guard let entry = item as? [String: Any] else { continue }
      let path = CassetteLocation.entry(index)
      if let request = entry["request"] as? [String: Any] {
        scanner.request(request, path + ".request")
      }
      if let response = entry["response"] as? [String: Any] {
        scanner.response(response, path + ".response")
      }
      for (key, value) in entry where !["request", "response"].contains(key) {
        scanner.any(value, "\(path).\(key)")
      }
    }
    return scanner.problems
  }

  private struct Walker {
    let secrets: [String]
    var rules: RedactionRules
    var problems: [Problem] = []
    /// Body texts not to read (``scan(_:secrets:fallbackRules:skippingBodies:)``).
    var skipped: Set<String> = []
    /// `problems` as a set: a file with thousands of findings is checked in linear time.
    private var reported: Set<Problem> = []

    init(secrets: [String], rules: RedactionRules) {
      self.secrets = secrets
      self.rules = rules
    }

    mutating func report(_ path: String, _ message: String) {
      let problem = Problem(path: path, message: message)
      if reported.insert(problem).inserted { problems.append(problem) }
    }

    /// Shapes and configured secrets in one decoded string (and its percent-decoding).
    mutating func text(_ value: String, _ path: String) {
      var forms = [value]
      let percentDecoded = FormURLEncoding.decode(value, plusIsSpace: false)
      if percentDecoded != value { forms.append(percentDecoded) }
      for form in forms {
        for (kind, _) in SecretShapes.find(in: form, jwtClaims: rules.jwtClaims) {
          report(path, kind.rawValue)
        }
        for (index, secret) in secrets.enumerated() where form.contains(secret) {
          report(path, "secret #\(index + 1)")
        }
      }
    }

    /// A value that a rule names must be redacted.
    mutating func named(_ value: String, rule: RedactionRule?, _ path: String) {
      guard let rule, !value.isEmpty else { return }
      var credential = Substring(value)
      if let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) {
        credential = value[value.index(after: space)...]
      }
      let redacted =
        isAliasShaped(String(credential)) || value == rule.label
        || SecretShapes.isRedactedUnsignedJWT(String(credential), jwtClaims: rules.jwtClaims)
      if !redacted { report(path, "\(rule.name) is not redacted") }
    }

    /// Any JSON value: every string in it is checked.
    mutating func any(_ value: Any, _ path: String) {
      if let string = value as? String {
        text(string, path)
      } else if let object = value as? [String: Any] {
        for (key, child) in object { any(child, "\(path).\(key)") }
      } else if let array = value as? [Any] {
        for (index, child) in array.enumerated() { any(child, "\(path)[\(index)]") }
      }
    }

    mutating func pairs(
      _ text: String, rules named: [RedactionRule], plusIsSpace: Bool, _ path: String
    ) {
      for (name, value) in FormURLEncoding.pairs(text, plusIsSpace: plusIsSpace) {
        let rule =
          named.first { $0.names(name) && $0.kind != .remove }
          ?? CredentialFieldNames.rule(for: name)
        self.named(value, rule: rule, "\(path).\(name)")
        self.text(value, "\(path).\(name)")
        embeddedURL(value, queryRules: named, "\(path).\(name)")
      }
    }

    /// The query and fragment items of a URL held in a value (``EmbeddedURL``: an
    /// `oobLink`, a `redirect_uri`), checked as a request's query items: one `queryRules`
    /// or ``CredentialFieldNames`` names must hold an alias.
    mutating func embeddedURL(_ value: String, queryRules: [RedactionRule], _ path: String) {
      guard let url = EmbeddedURL(value) else { return }
      for items in [url.query, url.fragment] {
        guard let items, items.contains("=") else { continue }
        pairs(String(items), rules: queryRules, plusIsSpace: false, path + " (URL)")
      }
    }

    /// Path-segment parameters and bare query items (``LoggedRequestTarget``: what logs
    /// redact because no name says what they are) must be aliases: `name=<ALIAS>` or a
    /// bare `<ALIAS>`.
    mutating func urlParameters(_ items: [Substring], _ path: String) {
      for item in items where !item.isEmpty {
        let value = item.firstIndex(of: "=").map { item[item.index(after: $0)...] } ?? item
        let decoded = FormURLEncoding.decode(value, plusIsSpace: false)
        if !decoded.isEmpty, !isAliasShaped(decoded) {
          report(
            path,
            "not redacted: a path-segment parameter or a query item without \"=\" "
              + "(logs redact these too)")
        }
      }
    }

    /// Header fields and cookies a cassette never holds (``NeverStoredParts``).
    mutating func neverStored(
      headers: [(name: String, value: String)], cookies: Any?, _ path: String
    ) {
      for (index, header) in headers.enumerated()
      where NeverStoredParts.isNeverStoredHeader(header.name) {
        report(
          "\(path).headers[\(index)] (\(header.name))",
          "\(header.name) header field (a credential; never stored)")
      }
      if let cookies = cookies as? [Any], !cookies.isEmpty {
        report(path + ".cookies", "cookies (credentials; never stored)")
      }
    }

    mutating func request(_ request: [String: Any], _ path: String) {
      let headers = nameValues(request["headers"])
      neverStored(headers: headers, cookies: request["cookies"], path)
      for (index, header) in headers.enumerated() {
        // A field no rule names but called like a credential (`X-Api-Token`) must hold an
        // alias too: redaction aliases one that a list keeps (``Redactor``).
        let rule: RedactionRule?
        if let ruled = rules.requestHeaders.first(where: { $0.names(header.name) }) {
          rule = ruled.kind == .remove ? nil : ruled
        } else {
          rule = CredentialFieldNames.rule(for: header.name)
        }
        named(header.value, rule: rule, "\(path).headers[\(index)] (\(header.name))")
        text(header.value, "\(path).headers[\(index)] (\(header.name))")
      }
      if let url = request["url"] as? String {
        for problem in NeverStoredParts.urlProblems(url) { report(path + ".url", problem) }
        text(url, path + ".url")
        if let components = URLComponents(string: url) {
          for segment in components.percentEncodedPath.split(separator: "/") {
            text(FormURLEncoding.decode(segment, plusIsSpace: false), path + ".url (path)")
            if let parameters = URLSecretParts.segmentParameters(segment) {
              urlParameters(parameters.split(separator: ";"), path + ".url (path parameters)")
            }
          }
          if let query = components.percentEncodedQuery {
            pairs(query, rules: rules.queryParameters, plusIsSpace: false, path + ".url (query)")
            urlParameters(
              query.split(separator: "&").filter(URLSecretParts.isBareQueryItem),
              path + ".url (query)")
          }
        }
      }
      for (index, item) in nameValues(request["queryString"]).enumerated() {
        let rule =
          rules.queryParameters.first { $0.names(item.name) && $0.kind != .remove }
          ?? CredentialFieldNames.rule(for: item.name)
        named(item.value, rule: rule, "\(path).queryString[\(index)] (\(item.name))")
        text(item.value, "\(path).queryString[\(index)] (\(item.name))")
      }
      if let postData = request["postData"] as? [String: Any] {
        for (index, item) in nameValues(postData["params"]).enumerated() {
          let rule =
            rules.formFields.first { $0.names(item.name) && $0.kind != .remove }
            ?? CredentialFieldNames.rule(for: item.name)
          named(item.value, rule: rule, "\(path).postData.params[\(index)] (\(item.name))")
          text(item.value, "\(path).postData.params[\(index)] (\(item.name))")
        }
        body(
          postData, encodingKeys: ["_encoding", "encoding"], headers: headers,
          path + ".postData.text")
      }
      for (key, value) in request
      where !["url", "headers", "queryString", "postData"].contains(key) {
        any(value, "\(path).\(key)")
      }
    }

    mutating func response(_ response: [String: Any], _ path: String) {
      let headers = nameValues(response["headers"])
      neverStored(headers: headers, cookies: response["cookies"], path)
      // A redirect's target: user information in it is a credential.
      let redirects =
        headers.enumerated().filter { $0.element.name.lowercased() == "location" }.map {
          ("\(path).headers[\($0.offset)] (\($0.element.name))", $0.element.value)
        } + [(path + ".redirectURL", response["redirectURL"] as? String ?? "")]
      for (place, url) in redirects where NeverStoredParts.userInformationRange(in: url) != nil {
        report(place, "user information in a redirect URL (a credential; never stored)")
      }
      for (index, header) in headers.enumerated() {
        text(header.value, "\(path).headers[\(index)] (\(header.name))")
        embeddedURL(
          header.value, queryRules: EmbeddedURL.itemRules(rules),
          "\(path).headers[\(index)] (\(header.name))")
      }
      if let content = response["content"] as? [String: Any] {
        body(content, encodingKeys: ["encoding"], headers: headers, path + ".content.text")
      }
      for (key, value) in response where !["headers", "content"].contains(key) {
        any(value, "\(path).\(key)")
      }
    }

    /// A body (`postData` or `content`): base64 and content codings undone, then read as
    /// JSON, form or text.
    mutating func body(
      _ object: [String: Any], encodingKeys: [String], headers: [(name: String, value: String)],
      _ path: String
    ) {
      guard let text = object["text"] as? String, !text.isEmpty, !skipped.contains(path)
      else { return }
      let encoding = encodingKeys.lazy.compactMap { object[$0] as? String }.first
      var data = Data(text.utf8)
      var label = path
      if encoding?.lowercased() == "base64" {
        guard let decoded = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
          report(path, "not valid base64; the body cannot be checked")
          return
        }
        data = decoded
        label += " (base64)"
      }
      var fields = HTTPFields()
      for header in headers { fields.append(name: header.name, value: header.value) }
      let codings = ContentCoding.codings(fields)
      do {
        data = try ContentCoding.decoded(data, fields: fields).0
        if !codings.isEmpty { label += " (\(codings.joined(separator: ", ")))" }
      } catch {
        report(path, "\(error); the body cannot be checked")
        return
      }
      // The one rule redaction and replay use: the header field, else `mimeType`.
      let mimeType = BodyType.mediaType(
        header: BodyType.contentType(headers), declared: object["mimeType"] as? String)
      content(data, mimeType: mimeType, label)
    }

    /// Each part of a multipart body: a part the rules name (or called like a credential)
    /// must hold an alias; every value is read as a body of its own type.
    mutating func parts(_ body: MultipartFormData, _ label: String) {
      for (index, part) in body.parts.enumerated() {
        let value = body.value(of: part)
        // A long name may be a value used as a name: the path shows its number instead.
        let shown = part.name.flatMap {
          $0.count <= CredentialNamesInText.longestQuotedName ? "\"" + $0 + "\"" : nil
        }
        let title = shown ?? "#\(index + 1)"
        let place = label + " (part " + title + ")"
        if let name = part.name,
          let rule = AliasTable.partRule(name, rules: rules), rule.kind != .remove
        {
          named(String(decoding: value, as: UTF8.self), rule: rule, place)
        }
        content(value, mimeType: part.contentType, place)
      }
      // Part headers (`filename`) are free text.
      for part in body.parts {
        for header in part.headers { text(header.value, label + " (part headers)") }
      }
    }

    /// A decoded body read as JSON, multipart (``MultipartFormData``), form or text.
    mutating func content(_ data: Data, mimeType declared: String, _ label: String) {
      let mimeType = declared.lowercased()
      switch BodyType.read(data, mediaType: declared) {
      case .json(let json): self.json(json, key: nil, label)
      case .multipart(let multipart): parts(multipart, label)
      case .form(let decoded):
        pairs(decoded, rules: rules.formFields, plusIsSpace: true, label)
        self.text(decoded, label)
      case .text(let decoded):
        // A body that is one URL is read item by item, as redaction reads it.
        if EmbeddedURL(decoded) == nil { unreadable(decoded, mimeType: mimeType, label) }
        self.text(decoded, label)
        embeddedURL(decoded, queryRules: EmbeddedURL.itemRules(rules), label)
      case .binary:
        let decoded = String(decoding: data, as: UTF8.self)
        unreadable(decoded, mimeType: mimeType, label)
        self.text(decoded, label)
      }
    }

    /// A body read only as text must name no credential field (``CredentialNamesInText``).
    mutating func unreadable(_ text: String, mimeType: String, _ label: String) {
      let names = CredentialNamesInText.names(in: text, rules: rules)
      guard !names.isEmpty else { return }
      let essence = mimeType.split(separator: ";").first.map(String.init) ?? ""
      let printable =
        essence.utf8.count <= 64 && essence.allSatisfy { $0.isASCII && !$0.isWhitespace }
      let type = essence.isEmpty ? "an untyped" : printable ? "a \(essence)" : "a mistyped"
      report(
        label,
        "\(type) body that is not JSON, a form or multipart names "
          + names.prefix(3).map { CredentialNamesInText.quoted($0, rules: rules) }.joined(
            separator: ", ")
          + "; its values cannot be redacted field by field (send it as JSON, form or"
          + " multipart, or leave the entry out)")
    }

    mutating func json(_ value: Any, key: String?, _ path: String) {
      if let object = value as? [String: Any] {
        for (childKey, child) in object { json(child, key: childKey, "\(path).\(childKey)") }
      } else if let array = value as? [Any] {
        for (index, child) in array.enumerated() { json(child, key: key, "\(path)[\(index)]") }
      } else if let string = value as? String {
        // The rule redaction applies: a JSON rule, else a name called like a credential.
        let rule = key.flatMap { name in
          rules.jsonFields.first { $0.names(name) && $0.kind != .remove }
            ?? CredentialFieldNames.rule(for: name, inJSON: true)
        }
        named(string, rule: rule, path)
        if let nested = BodyCoding.jsonObject(Data(string.utf8), mediaType: "") {
          json(nested, key: nil, path)
        } else {
          text(string, path)
          embeddedURL(string, queryRules: EmbeddedURL.itemRules(rules), path)
        }
      }
    }

    func nameValues(_ value: Any?) -> [(name: String, value: String)] {
      (value as? [Any] ?? []).compactMap { item in
        guard let pair = item as? [String: Any], let name = pair["name"] as? String else {
          return nil
        }
        return (name, pair["value"] as? String ?? "")
      }
    }
  }
}
