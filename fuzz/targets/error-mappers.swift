// libFuzzer target: the Firebase and NCMB error mappers (FirebaseErrorMapper,
// NCMBErrorMapping): whatever a server or a proxy answers becomes a portable error.
//
// Input: byte 0-1 the HTTP status (400...599), byte 2 flags (bit 0: the call carried a
// session), byte 3 which mapper (even: Firebase, odd: NCMB); the rest is the body
// (Firebase) or `code NUL message` (NCMB).
// Invariants: mapping never traps; an answer from a server is never `.network`; the same
// answer maps to the same error; the description is not empty.
import BackendHTTP
import Foundation
import UserBackendKit

@testable import FirebaseUserBackend
@testable import NCMBUserBackend

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard size >= 4, let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let status = 400 + (Int(bytes[0]) << 8 | Int(bytes[1])) % 200
  let usesSession = bytes[2] & 1 == 1
  let rest = Data(bytes[4...])
  let mapped: UserBackendError
  let again: UserBackendError
  if bytes[3] % 2 == 0 {
    let response = HTTPResponse(
      status: status, headerFields: ["Content-Type": "application/json"], body: rest)
    let context = FirebaseErrorContext(
      operation: "accounts:signUp", capability: .emailPassword, usesSession: usesSession)
    mapped = FirebaseErrorMapper.error(for: response, context: context)
    again = FirebaseErrorMapper.error(for: response, context: context)
  } else {
    let parts = rest.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    let code = String(decoding: parts.first ?? Data(), as: UTF8.self)
    let message = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
    mapped = NCMBErrorMapping.error(
      code: code, message: message, status: status, sentSessionToken: usesSession)
    again = NCMBErrorMapping.error(
      code: code, message: message, status: status, sentSessionToken: usesSession)
  }
  if case .network = mapped.code { preconditionFailure("a server answer mapped to .network") }
  precondition(mapped.code == again.code, "mapping is not deterministic")
  precondition(!String(describing: mapped).isEmpty)
  return 0
}
