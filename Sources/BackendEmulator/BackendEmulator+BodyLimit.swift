import BackendHTTP
import Foundation

/// How large a request body the emulator takes, per protocol, and how it refuses a larger
/// one: in the protocol's own error envelope, so the adapters report a typed error.
///
/// The limits are the services' own request limits, not the document limit: a document of
/// at most 1 MiB in Firestore's storage size (`DocumentValidation`) can be several times
/// larger on the wire (a control character is one byte stored and six, `\u0001`, in JSON;
/// a name is sent in `fields` and again, quoted, in `updateMask`), and a document of
/// empty maps has no wire bound at all, so no body limit fits every valid document; the
/// services refuse such bodies too.
///
/// - Google APIs (Firestore, Identity Toolkit, Secure Token, and everything else that is
///   not NCMB): ``googleMaximumBodyBytes`` (10 MiB, Google's API request limit), refused
///   `400 INVALID_ARGUMENT` `Request payload size exceeds the limit: 10485760 bytes.`
///   in the Google error envelope (the Firestore adapter reports `invalidInput` naming
///   `fields`).
/// - NCMB (`/2013-09-01/…`): ``ncmbMaximumBodyBytes`` (16 MiB, the service's per-document
///   limit, `E413002`), refused `413` `{"code":"E413002","error":"Request entity too
///   large."}` (the NCMB adapter reports `server(status: 413, code: "E413002")`).
extension BackendEmulator {
  /// The largest body of a Google API request: 10 MiB (10,485,760 bytes).
  public static let googleMaximumBodyBytes = 10_485_760
  /// The largest body of an NCMB request: 16 MiB (16,777,216 bytes).
  public static let ncmbMaximumBodyBytes = 16_777_216

  /// The body limit of `request` (its head) and its refusal, for
  /// ``EmulatorServer/init(host:port:limits:notices:bodyLimit:handler:)``.
  public static func bodyLimit(for request: HTTPRequest) -> EmulatorServer.BodyLimit {
    var refusal: HTTPResponse
    let maxBytes: Int
    if NCMBHandler.handles(request) {
      maxBytes = ncmbMaximumBodyBytes
      refusal = NCMBError("E413002", "Request entity too large.").response
    } else {
      maxBytes = googleMaximumBodyBytes
      refusal = WireResponse.json(
        400,
        [
          "error": [
            "code": 400,
            "message": "Request payload size exceeds the limit: \(maxBytes) bytes.",
            "status": "INVALID_ARGUMENT",
          ] as [String: Any]
        ])
    }
    if !LoopbackGuard.isGuarded(request) {
      refusal.headerFields["Access-Control-Allow-Origin"] = "*"
    }
    return EmulatorServer.BodyLimit(maxBytes: maxBytes, refusal: refusal)
  }
}
