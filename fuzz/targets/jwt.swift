// libFuzzer target: JWT parsing and claim decoding (UserBackendKit JSONWebToken, Base64URL).
//
// Invariants: parsing never traps; a parsed token re-encoded from its decoded header,
// payload and signature parses to an equal token with the same claims; base64url
// decoding inverts encoding for any bytes.
import Foundation
import UserBackendKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  precondition(Base64URL.decode(Base64URL.encode(bytes)) == bytes, "base64url round trip")
  let text = String(decoding: bytes, as: UTF8.self)
  guard let token = try? JSONWebToken(parsing: text) else { return 0 }
  let again =
    Base64URL.encode(token.header) + "." + Base64URL.encode(token.payload) + "."
    + token.signature
  guard let reparsed = try? JSONWebToken(parsing: again) else {
    preconditionFailure("a re-encoded token does not parse")
  }
  precondition(reparsed == token, "a re-encoded token differs")
  for name in ["sub", "email", "exp", "iat", "aud", "iss", "nonce"] {
    precondition(reparsed.stringClaim(name) == token.stringClaim(name))
    let (a, b) = (reparsed.numericClaim(name), token.numericClaim(name))
    precondition(a == b || (a?.isNaN == true && b?.isNaN == true))
  }
  _ = token.expiresAt
  _ = token.stringClaim("sign_in_provider", in: "firebase")
  return 0
}
