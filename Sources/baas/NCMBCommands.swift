import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
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
      NCMB_BASE_URL. The query is signed for GET only, exactly as written (sorted
      parameters, percent-encoded), so use the same URL in the request.

      example (with `baas emulator` running and its NCMB_* variables exported, and the
      body in a file so the password is not an argument):
        baas ncmb sign POST /2013-09-01/login --curl --data @login.json | sh

      options:
        METHOD          GET, POST, PUT or DELETE (any case)
        --timestamp T   the X-NCMB-Timestamp to sign (default: now), ISO 8601 UTC,
                        e.g. 2013-12-02T02:44:35.452Z
        --fqdn HOST     the host to sign (default: the URL's host, without port)
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
        guard FileManager.default.isReadableFile(atPath: path) else {
          throw UsageError("cannot read the data file \(path)", command: "ncmb sign")
        }
      }
      do {
        let configuration = try context.configuration(backend: "ncmb")
        let target = options.positionals[1]
        let url: URL?
        if target.hasPrefix("/") {
          url = URL(string: try configuration.ncmbBaseURL().absoluteString + target)
        } else {
          url = URL(string: target)
        }
        guard let url, url.host != nil, url.scheme == "http" || url.scheme == "https" else {
          throw UsageError(
            "URL must be an absolute http(s) URL or a path starting with /", command: "ncmb sign")
        }
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
        }
        return .success
      } catch let error as UsageError {
        throw error
      } catch {
        return reportFailure(error, json: false, backend: "ncmb")
      }
    })
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
