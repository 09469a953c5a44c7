// libFuzzer target: `baas cassette import` (HTTPReplay HARImporter.importHAR), a HAR from
// a browser or an HTTP debugger turned into a redacted cassette.
//
// Input: any bytes, the HAR file.
// Invariants: importing never traps; a refusal is a `CassetteError`; an imported cassette
// holds no value of a field the rules redact (JSON token fields, aliased request headers
// and query parameters of the input, 12 characters or more with a digit and a lower-case
// letter; not an unsigned JWT, the form redaction writes) in raw, percent-encoded or JSON-escaped form; it encodes to bytes that decode to
// an equal cassette.
import BackendHTTP
import Foundation

@testable import HTTPReplay

let rules = RedactionRules.standard

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  let cassette: Cassette
  do {
    cassette = try HARImporter.importHAR(data: bytes, rules: rules, secrets: [])
  } catch {
    precondition(error is CassetteError, "a refusal is not a CassetteError")
    return 0
  }
  guard let encoded = try? cassette.encoded() else {
    preconditionFailure("an imported cassette does not encode")
  }
  let secrets = redactedValues(bytes)
  let leaks = LeakScanner.scan(encoded, secrets: secrets).filter { finding in
    finding.secretIndex != nil && [.raw, .percentEncoded, .jsonEscaped].contains(finding.form)
  }
  if let leak = leaks.first {
    // -O drops precondition messages: say which value, where (a fuzz input, no real secret).
    let value = secrets[leak.secretIndex ?? 0]
    FileHandle.standardError.write(Data("survives: \(value) (\(leak))\n".utf8))
    preconditionFailure("a redacted value survives the import")
  }
  guard let again = try? Cassette.decode(encoded) else {
    preconditionFailure("an imported cassette does not decode")
  }
  precondition(again == cassette, "an imported cassette re-decodes differently")
  return 0
}

/// The values in `har` that `rules` claim to redact: JSON body fields (requests and
/// responses, at any depth, bodies decoded as the importer decodes them), aliased request
/// headers (without a `Bearer ` scheme) and aliased query parameters, long and varied
/// enough not to occur by chance in the cassette's own words and dates. The file is read
/// with the importer's own decoder, so both see the same values (a duplicated JSON key is
/// not read differently).
func redactedValues(_ har: Data) -> [String] {
  struct File: Decodable { var log: HARLog }
  guard let log = try? JSONDecoder().decode(File.self, from: har).log else { return [] }
  let jsonNames = Set(rules.jsonFields.filter { $0.kind == .alias }.map(\.name))
  let headerNames = Set(
    rules.requestHeaders.filter { $0.kind == .alias }.map { $0.name.lowercased() })
  let queryNames = Set(rules.queryParameters.filter { $0.kind == .alias }.map(\.name))
  var found: [String] = []
  func walk(_ item: Any) {
    if let array = item as? [Any] {
      array.forEach(walk)
    } else if let object = item as? [String: Any] {
      for (key, value) in object {
        if jsonNames.contains(key), let text = value as? String { found.append(text) }
        walk(value)
      }
    }
  }
  func body(_ data: Data, _ fields: HTTPFields) {
    let data = (try? ContentCoding.decoded(data, fields: fields))?.0 ?? data
    if let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) {
      walk(json)
    }
  }
  for (index, entry) in log.entries.enumerated() {
    // Only the entries the importer keeps (an http(s) URL): a skipped entry's tokens are
    // not in the cassette's redaction table, and text elsewhere that only they name (an
    // unparseable body) cannot be known as secret.
    guard let request = try? entry.httpRequest(index: index),
      ["http", "https"].contains(request.url.scheme?.lowercased() ?? "")
    else { continue }
    body(request.body, request.headerFields)
    for field in request.headerFields where headerNames.contains(field.name.lowercased()) {
      found.append(
        field.value.hasPrefix("Bearer ") ? String(field.value.dropFirst(7)) : field.value)
    }
    for item in URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    where queryNames.contains(item.name) {
      found.append(item.value ?? "")
    }
    if let response = try? entry.httpResponse(index: index) {
      body(response.body, response.headerFields)
    }
  }
  return found.filter { value in
    value.count >= 12 && value.contains(where: \.isNumber) && value.contains(where: \.isLowercase)
      && !value.contains("<") && !value.contains(">") && !isUnsignedJWT(value)
  }
}

/// `header.payload.` (empty signature): the form redaction writes and leaves as it is.
func isUnsignedJWT(_ value: String) -> Bool {
  value.hasSuffix(".") && value.split(separator: ".", omittingEmptySubsequences: false).count == 3
}
