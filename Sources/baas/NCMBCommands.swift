import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import UserBackendKit
import UserBackends

/// `ncmb sign`: the NCMB signature headers for a hand-made request (curl).
enum NCMBCommands {
  static let all: [Command] = [sign]

  static let sign = Command(
    name: "ncmb sign", synopsis: "METHOD URL [--timestamp T] [--fqdn HOST] [--curl [--data BODY]]",
    help: """
      Prints the X-NCMB-Application-Key, X-NCMB-Timestamp and X-NCMB-Signature headers
      (signature version 2) for a request, one per line, ready for curl -H. The keys come
      from NCMB_APPLICATION_KEY / NCMB_CLIENT_KEY (or the config file). URL is absolute,
      or a path such as /2013-09-01/login?userName=a&password=b resolved against
      NCMB_BASE_URL. The query may be written plainly (where={"a":"b"}) or
      percent-encoded; it is re-encoded as the adapter encodes it (upper-case %XX for
      everything but A-Z a-z 0-9 - . _ ~; + is a plus, & inside a JSON value stays in the
      value). The query is signed for GET only. Send the URL that was signed: --curl
      prints it; otherwise it is shown on standard error when it differs from URL.

      example (with `baas emulator` running and its NCMB_* variables exported, and the
      body in a file so the password is not an argument):
        baas ncmb sign POST /2013-09-01/login --curl --data @login.json | sh

      options:
        METHOD          GET, POST, PUT or DELETE (any case)
        --timestamp T   the X-NCMB-Timestamp to sign (default: now), ISO 8601 UTC,
                        e.g. 2013-12-02T02:44:35.452Z
        --fqdn HOST     the host to sign (default: the URL's host, without port): a
                        host name as the server knows itself, such as
                        mbaas.api.nifcloud.com (lower case; no scheme, port or path)
        --curl          print a whole curl command instead of the header lines
        --data BODY     with --curl, not with GET: the request body (not signed: NCMB
                        signs no body); @FILE makes curl read it from FILE
      """,
    spec: OptionSpec(valued: ["timestamp", "fqdn", "data"], flags: ["curl"], positionals: 2...2),
    run: { options, context in
      let context = context.merging(options)
      let methodName = options.positionals[0].uppercased()
      guard ["GET", "POST", "PUT", "DELETE"].contains(methodName) else {
        throw UsageError("METHOD must be GET, POST, PUT or DELETE", command: "ncmb sign")
      }
      let method = HTTPMethod(rawValue: methodName)
      if let timestamp = options.value("timestamp"), !isTimestamp(timestamp) {
        throw UsageError(
          "--timestamp must be an ISO 8601 UTC time such as 2013-12-02T02:44:35.452Z",
          command: "ncmb sign")
      }
      if let fqdn = options.value("fqdn"), let problem = NCMBSignature.fqdnProblem(fqdn) {
        throw UsageError("--fqdn \(problem)", command: "ncmb sign")
      }
      let body = options.value("data")
      if body != nil {
        guard options.has("curl") else {
          throw UsageError(
            "--data needs --curl (the signature covers no body)", command: "ncmb sign")
        }
        guard method != .get else {
          throw UsageError("--data with GET: a GET request has no body", command: "ncmb sign")
        }
      }
      if let body, body.hasPrefix("@") {
        let path = String(body.dropFirst())
        try PathOption.check(path, option: "--data @FILE", command: "ncmb sign")
        guard FileManager.default.isReadableFile(atPath: path) else {
          throw UsageError("cannot read the data file \(path)", command: "ncmb sign")
        }
      }
      do {
        let configuration = try context.configuration(backend: "ncmb")
        let url = try signedURL(options.positionals[1], configuration: configuration)
        let applicationKey = configuration.ncmb.applicationKey ?? ""
        let timestamp = options.value("timestamp") ?? NCMBSignature.timestamp(Date())
        let signature = NCMBSignature.sign(
          request: HTTPRequest(method: method, url: url), applicationKey: applicationKey,
          clientKey: configuration.ncmb.clientKey ?? "", timestamp: timestamp,
          fqdn: options.value("fqdn"))
        let headers = [
          "\(NCMBSignature.Header.applicationKey): \(applicationKey)",
          "\(NCMBSignature.Header.timestamp): \(timestamp)",
          "\(NCMBSignature.Header.signature): \(signature)",
        ]
        if options.has("curl") {
          var words = ["curl", "-sS", "-X", method.rawValue]
          for header in headers { words += ["-H", shellQuoted(header)] }
          if method != .get { words += ["-H", shellQuoted("Content-Type: application/json")] }
          if let body, body.hasPrefix("@") {
            // curl reads the file itself: the body (a password) never is an argument.
            words += ["--data-binary", "@" + shellQuoted(String(body.dropFirst()))]
          } else if let body {
            words += ["--data", shellQuoted(body)]
          }
          words.append(shellQuoted(url.absoluteString))
          Console.out(words.joined(separator: " "))
        } else {
          for header in headers { Console.out(header) }
          if url.absoluteString != options.positionals[1] {
            Console.error("signed URL (send exactly this): \(url.absoluteString)")
          }
        }
        return .success
      } catch let error as UsageError {
        throw error
      } catch {
        return reportFailure(error, json: false, backend: "ncmb")
      }
    })
}

/// The URL to sign for the `ncmb sign` URL argument: absolute, or a path resolved against
/// the NCMB base URL; its query re-encoded by ``NCMBSignature/canonicalQuery(_:)``.
/// - Throws: ``UsageError`` for a URL that is not absolute http(s) or a path, or a query
///   that cannot be decoded; the configuration's error for an unusable base URL.
func signedURL(_ target: String, configuration: BackendConfiguration) throws -> URL {
  let usage = "URL must be an absolute http(s) URL or a path starting with /"
  var location = target
  if let hash = location.firstIndex(of: "#") { location = String(location[..<hash]) }
  var query: String?
  if let mark = location.firstIndex(of: "?") {
    query = String(location[location.index(after: mark)...])
    location = String(location[..<mark])
  }
  guard hasOnlyWellFormedEscapes(location) else {
    throw UsageError(
      "the URL's path has a malformed percent-escape (% must be followed by two hex digits; "
        + "write %25 for a literal %)", command: "ncmb sign")
  }
  if location.hasPrefix("/") {
    location = try configuration.ncmbBaseURL().absoluteString + location
  }
  guard let base = URL(string: location), base.host != nil,
    ["http", "https"].contains(base.scheme?.lowercased()),
    var components = URLComponents(url: base, resolvingAgainstBaseURL: false)
  else { throw UsageError(usage, command: "ncmb sign") }
  // The adapters and both transports refuse user info; printed in a curl command it would
  // put the password on the terminal and in the shell's history.
  guard base.user == nil, base.password == nil else {
    throw UsageError(
      "the URL must not carry a user name or password (user:password@)", command: "ncmb sign")
  }
  // The one port rule of every setting (NCMB_BASE_URL): `:065` or an empty `:` would be
  // printed into the curl command and read differently by each client.
  guard URLLoaderSupport.hasUsablePort(base) else {
    throw UsageError(
      "the URL's port must be a number from 1 to 65535, written without leading zeros",
      command: "ncmb sign")
  }
  // RFC 3986 §6.2.2.1 normalization, which the service expects: it refuses a signature
  // over `%7b` (lower-case hex) even when those bytes were signed, and signs its own host
  // name in lower case. So the path's escapes are signed and sent upper-case (as the
  // query's are) and the host lower-case.
  components.percentEncodedPath = upperCasingEscapes(components.percentEncodedPath)
  if let host = components.percentEncodedHost, host != host.lowercased() {
    components.percentEncodedHost = host.lowercased()
  }
  if let query {
    do {
      let canonical = try NCMBSignature.canonicalQuery(query)
      components.percentEncodedQuery = canonical.isEmpty ? nil : canonical
    } catch let error as UserBackendError {
      var reason = "cannot be read"
      if case .invalidInput(_, let why) = error.code { reason = why }
      throw UsageError("the URL's query \(reason)", command: "ncmb sign")
    }
  }
  guard let url = components.url else { throw UsageError(usage, command: "ncmb sign") }
  return url
}

/// `true` when every `%` in `text` is followed by two hex digits.
func hasOnlyWellFormedEscapes(_ text: String) -> Bool {
  let bytes = Array(text.utf8)
  var index = 0
  while index < bytes.count {
    if bytes[index] == UInt8(ascii: "%") {
      guard index + 2 < bytes.count, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2])
      else { return false }
      index += 3
    } else {
      index += 1
    }
  }
  return true
}

/// `path` with the two hex digits after each `%` in upper case (`%7b` -> `%7B`); the
/// escapes are well formed (``hasOnlyWellFormedEscapes(_:)``).
func upperCasingEscapes(_ path: String) -> String {
  var bytes = Array(path.utf8)
  var index = 0
  while index + 2 < bytes.count {
    if bytes[index] == UInt8(ascii: "%") {
      for offset in 1...2
      where (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(bytes[index + offset]) {
        bytes[index + offset] -= 32
      }
      index += 3
    } else {
      index += 1
    }
  }
  return String(decoding: bytes, as: UTF8.self)
}

private func isHexDigit(_ byte: UInt8) -> Bool {
  (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
}

/// `true` for an ISO 8601 UTC timestamp as NCMB expects: `YYYY-MM-DDTHH:MM:SS`, an
/// optional fraction of 1 to 3 digits, then `Z` (a real date and time).
func isTimestamp(_ text: String) -> Bool {
  let parts = text.split(separator: ".", omittingEmptySubsequences: false)
  guard text.hasSuffix("Z"), parts.count <= 2 else { return false }
  var whole = String(parts[0])
  if parts.count == 2 {
    let fraction = parts[1].dropLast()
    guard parts[1].hasSuffix("Z"), (1...3).contains(fraction.count),
      fraction.allSatisfy({ $0.isASCII && $0.isNumber })
    else { return false }
  } else {
    whole = String(whole.dropLast())
  }
  guard whole.count == 19 else { return false }
  let formatter = ISO8601DateFormatter()
  formatter.formatOptions = [.withInternetDateTime]
  return formatter.date(from: whole + "Z") != nil
}

/// `text` in single quotes for a POSIX shell.
func shellQuoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
