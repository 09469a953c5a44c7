import BackendHTTP
import Foundation
import UserBackendKit

/// How to reach an NCMB-style server: the application key, the client key and the base URL,
/// plus wire options.
///
/// `description` and `debugDescription` never contain the client key.
public struct NCMBConfiguration: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// `https://mbaas.api.nifcloud.com`, the hosted service's base URL
  /// (`docs/wire/ncmb.md` §1). The service closed on 2024-03-31; point ``baseURL`` at a
  /// compatible server such as the emulator.
  public static let defaultBaseURL = URL(string: "https://mbaas.api.nifcloud.com")!

  /// The REST API version path segment, `2013-09-01`.
  public static let apiVersion = "2013-09-01"

  /// The application key, sent as `X-NCMB-Application-Key` and signed.
  public var applicationKey: String
  /// The client key: the HMAC key of every signature; never sent.
  public var clientKey: String
  /// The server's base URL (`scheme://host[:port][/prefix]`). Requests go to
  /// `<baseURL>/2013-09-01/...`; the signature uses its host (without port) as the FQDN.
  public var baseURL: URL
  /// Sign in with the legacy `GET /2013-09-01/login?userName=…&password=…` (query signed)
  /// instead of `POST /2013-09-01/login` with a JSON body. Off by default: it puts the
  /// password in the URL, where proxies and server logs may keep it.
  public var legacyGETLogin: Bool
  /// Check `X-NCMB-Response-Signature` when a response carries one (`docs/wire/ncmb.md` §2,
  /// "Response signature"); a mismatch throws `malformedResponse` with backend code
  /// `E100001`. Off by default (the service only signs responses when the application
  /// enables it).
  public var validatesResponseSignature: Bool
  /// The `client_id` sent with Sign in with Apple (`authData.apple.client_id`, the App ID
  /// / bundle identifier); `nil` uses the ID token's `aud` claim.
  public var appleClientID: String?
  /// The per-request timeout in seconds, or `nil` for the transport's default.
  public var requestTimeout: TimeInterval?

  /// A configuration.
  ///
  /// - Parameters:
  ///   - applicationKey: the application key (non-empty).
  ///   - clientKey: the client key (non-empty).
  ///   - baseURL: an `https` URL with a host (`http` only to a loopback host); default
  ///     ``defaultBaseURL``.
  ///   - legacyGETLogin: see ``legacyGETLogin``.
  ///   - validatesResponseSignature: see ``validatesResponseSignature``.
  ///   - appleClientID: see ``appleClientID``.
  ///   - requestTimeout: see ``requestTimeout`` (default 10 s, as the official SDK).
  /// Values are checked by ``validate()`` (and by `NCMBUserBackend.init`), not here.
  public init(
    applicationKey: String, clientKey: String, baseURL: URL = defaultBaseURL,
    legacyGETLogin: Bool = false, validatesResponseSignature: Bool = false,
    appleClientID: String? = nil, requestTimeout: TimeInterval? = 10
  ) {
    self.applicationKey = applicationKey
    self.clientKey = clientKey
    self.baseURL = baseURL
    self.legacyGETLogin = legacyGETLogin
    self.validatesResponseSignature = validatesResponseSignature
    self.appleClientID = appleClientID
    self.requestTimeout = requestTimeout
  }

  /// The FQDN used in signatures: the base URL's host in lower case (host names are
  /// case-insensitive; the service signs its own name in lower case, so a signature over
  /// `MBAAS.api.nifcloud.com` would never match).
  public var fqdn: String { baseURL.host?.lowercased() ?? "" }

  /// Checks the settings.
  ///
  /// - Throws: ``UserBackendError`` `.misconfigured(setting:reason:)` naming
  ///   `applicationKey`, `clientKey` or `baseURL` (also an IP address written other than
  ///   in its standard form, `127.1` or `[0:0:0:0:0:0:0:1]`: the transport would send it
  ///   rewritten and the signature would not match; and `http` to a host that is not
  ///   loopback, see ``plainHTTPProblem(_:)``). An IPv6 literal host
  ///   (`http://[::1]:9099`) is accepted: the default transport reaches it
  ///   (``BackendHTTP/URLSessionTransport`` refuses it on Linux, per request, before
  ///   connecting).
  public func validate() throws(UserBackendError) {
    func blank(_ value: String) -> Bool {
      value.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
    }
    if blank(applicationKey) {
      throw UserBackendError(.misconfigured(setting: "applicationKey", reason: "is empty"))
    }
    if blank(clientKey) {
      throw UserBackendError(.misconfigured(setting: "clientKey", reason: "is empty"))
    }
    let scheme = baseURL.scheme?.lowercased()
    guard scheme == "http" || scheme == "https", let host = baseURL.host, !host.isEmpty else {
      throw UserBackendError(
        .misconfigured(setting: "baseURL", reason: "must be an http or https URL with a host"))
    }
    if let problem = URLLoaderSupport.baseURLProblem(baseURL)
      // `URL.host` drops an IPv6 literal's brackets (`[zz]` reads as `zz`): put them back.
      ?? URLLoaderSupport.addressSpellingProblem(
        host: baseURL.absoluteString.contains("://[") ? "[\(host)]" : host)
      ?? Self.plainHTTPProblem(baseURL)
    {
      throw UserBackendError(.misconfigured(setting: "baseURL", reason: problem))
    }
  }

  /// Why `baseURL` may not be used in plain HTTP, or `nil`: `http` is allowed only to a
  /// loopback or private-network host (``BackendHTTP/URLLoaderSupport/isPrivateNetwork(host:)``:
  /// 127.0.0.1, 10.x, 192.168.x, a container's service name such as `emulator`, a
  /// `.internal` name, …; not link-local nor 0.0.0.0, ``BackendHTTP/HostScope``), where the
  /// emulator runs; to any other host every signed request,
  /// password and session token would cross the internet in clear text. (Firebase allows
  /// plain HTTP to loopback and to its configured emulator host; NCMB has no emulator
  /// setting, so the network decides.) `https` (and any other scheme, refused elsewhere)
  /// passes.
  public static func plainHTTPProblem(_ baseURL: URL) -> String? {
    guard baseURL.scheme?.lowercased() == "http" else { return nil }
    let host = baseURL.host ?? ""
    guard let refusal = HostScope(host: host).refusal(host: host) else { return nil }
    return
      "plain HTTP is refused for \(host), which \(refusal); use https (http is allowed only for a "
      + "loopback or private-network host such as 127.0.0.1, 192.168.1.10 or a container "
      + "name like emulator)"
  }

  /// The base URL and options; both keys redacted.
  public var description: String {
    "NCMBConfiguration(applicationKey: <redacted>, clientKey: <redacted>, baseURL: "
      + "\(baseURL.absoluteString), legacyGETLogin: \(legacyGETLogin), "
      + "validatesResponseSignature: \(validatesResponseSignature))"
  }
  /// Same as ``description``.
  public var debugDescription: String { description }
}
