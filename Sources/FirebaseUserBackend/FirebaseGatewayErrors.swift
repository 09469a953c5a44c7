import Foundation

/// Google front-end (API gateway) rejections that concern the API key or the project
/// rather than the call: the key is invalid or expired, the key is restricted (HTTP
/// referrer, iOS or Android app, IP address, or API restrictions), or the Identity Toolkit
/// API is not enabled. They come in the newer `details[].reason` form
/// (`google.rpc.ErrorInfo`, e.g. `API_KEY_HTTP_REFERRER_BLOCKED`), the older
/// `errors[].reason` form (`keyInvalid`, `ipRefererBlocked`, `accessNotConfigured`), or
/// only as `status: "PERMISSION_DENIED"` with a sentence.
///
/// Only an invalid key is reported as "wrong API key?": a valid but restricted key, or a
/// project that has not enabled the API, is named as what it is.
struct FirebaseGatewayProblem: Sendable, Hashable {
  /// The backend code to keep: the matched reason, else the gRPC status.
  let code: String
  /// What is wrong and where to fix it.
  let reason: String

  /// The reason given for an API key the server does not accept as a key.
  static let invalidKeyReason = "the server rejected the API key (wrong API key?)"

  /// Classifies an error envelope, or `nil` when it is not a gateway rejection.
  static func classify(_ envelope: FirebaseErrorEnvelope, status: Int) -> FirebaseGatewayProblem? {
    let reasons = envelope.reasons
    let message = envelope.error.message ?? ""
    func reason(_ names: String...) -> String? {
      reasons.first { name in names.contains { name == $0 || name.hasPrefix($0) } }
    }
    func problem(_ matched: String?, _ text: String) -> FirebaseGatewayProblem {
      FirebaseGatewayProblem(
        code: matched ?? envelope.error.status ?? "HTTP_\(status)", reason: text)
    }
    if message.hasPrefix("API key expired") {
      return problem(
        reason("API_KEY_INVALID") ?? "API_KEY_EXPIRED",
        "the API key has expired; renew it in the Google Cloud console (APIs & Services > "
          + "Credentials) or use another key")
    }
    if let matched = reason("API_KEY_INVALID", "keyInvalid") {
      return problem(matched, invalidKeyReason)
    }
    if message.hasPrefix("API key not valid") || message.contains("missing a valid API key")
      || message.contains("unregistered callers")
    {
      return problem(nil, invalidKeyReason)
    }
    let restricted = "the API key is valid but restricted"
    let fix =
      "; allow this client in the key's restrictions (Google Cloud console, APIs & "
      + "Services > Credentials) or use a key without application restrictions"
    if let matched = reason("API_KEY_HTTP_REFERRER_BLOCKED", "ipRefererBlocked") {
      return problem(matched, restricted + " to certain HTTP referrers" + fix)
    }
    if message.hasPrefix("Requests from referer") {
      return problem(nil, restricted + " to certain HTTP referrers" + fix)
    }
    if let matched = reason("API_KEY_IOS_APP_BLOCKED") {
      return problem(matched, restricted + " to iOS apps" + fix)
    }
    if message.contains("iOS client application") {
      return problem(nil, restricted + " to iOS apps" + fix)
    }
    if let matched = reason("API_KEY_ANDROID_APP_BLOCKED") {
      return problem(matched, restricted + " to Android apps" + fix)
    }
    if message.contains("Android client application") {
      return problem(nil, restricted + " to Android apps" + fix)
    }
    if let matched = reason("API_KEY_IP_ADDRESS_BLOCKED", "ipAddressBlocked") {
      return problem(matched, restricted + " to certain IP addresses" + fix)
    }
    let serviceBlocked =
      restricted + " to APIs that do not include the Identity Toolkit API (or the Token "
      + "Service API); add them to the key's API restrictions"
    if let matched = reason("API_KEY_SERVICE_BLOCKED") {
      return problem(matched, serviceBlocked)
    }
    if message.hasPrefix("Requests to this API") && message.contains("are blocked") {
      return problem(nil, serviceBlocked)
    }
    let disabled =
      "the Identity Toolkit API is not enabled for the project of this API key; enable it "
      + "in the Google Cloud console (or set up Authentication in the Firebase console)"
    if let matched = reason("SERVICE_DISABLED", "accessNotConfigured") {
      return problem(matched, disabled)
    }
    if message.contains("has not been used in project") {
      return problem(nil, disabled)
    }
    if status == 403 && envelope.error.status == "PERMISSION_DENIED" {
      let said = message.isEmpty ? "" : " (\(message))"
      return problem(
        reason("forbidden"),
        "the server refused this request for the project of this API key\(said); check the "
          + "key's restrictions and the project's Authentication setup")
    }
    return nil
  }
}
