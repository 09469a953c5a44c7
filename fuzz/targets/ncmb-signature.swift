// libFuzzer target: the NCMB signature verifier (NCMBSigning NCMBSignature).
//
// Input: byte 0 picks the method (GET, POST, PUT, DELETE, or the next field as a raw
// method), byte 1 which signature byte to change; the rest is NUL-separated fields: URL,
// application key, timestamp, client key, header lines (`Name: value` separated by LF,
// sent as they are, including any X-NCMB-* header), then the body.
// Invariants: verifying any request never traps and gives the same answer twice; a
// request signed with `sign` (with a host, non-empty keys, canonical escapes in its path
// and GET query) verifies; changing one byte of that signature makes it fail.
import BackendHTTP
import Foundation
import NCMBSigning

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard size >= 2, let data else { return 0 }
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  var parts = bytes[2...].split(separator: 0, maxSplits: 5, omittingEmptySubsequences: false)
    .map { String(decoding: $0, as: UTF8.self) }
  while parts.count < 6 { parts.append("") }
  let methods: [HTTPMethod] = [.get, .post, .put, .delete]
  let method = Int(bytes[0]) < 4 * 60 ? methods[Int(bytes[0]) % 4] : HTTPMethod(rawValue: parts[5])
  let url =
    URL(string: parts[0])
    ?? URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/users")!
  let (applicationKey, timestamp, clientKey) = (parts[1], parts[2], parts[3])
  var fields = HTTPFields()
  for line in parts[4].split(separator: "\n") {
    let pair = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
    fields.append(name: String(pair[0]), value: pair.count > 1 ? String(pair[1]) : "")
  }
  let request = HTTPRequest(
    method: method, url: url, headerFields: fields, body: Data(parts[5].utf8))

  // Any request: no trap, a stable answer.
  let first = NCMBSignature.verify(request: request, clientKey: clientKey)
  precondition(first == NCMBSignature.verify(request: request, clientKey: clientKey))
  _ = NCMBSignature.verify(request: request, clientKey: clientKey, applicationKey: applicationKey)
  _ = NCMBSignature.verify(
    request: request, clientKey: clientKey, acceptedHosts: [], applicationKey: applicationKey)

  // Sign, then verify.
  let signature = NCMBSignature.sign(
    request: request, applicationKey: applicationKey, clientKey: clientKey, timestamp: timestamp)
  var signed = request
  signed.headerFields[NCMBSignature.Header.applicationKey] = applicationKey
  signed.headerFields[NCMBSignature.Header.timestamp] = timestamp
  signed.headerFields[NCMBSignature.Header.signature] = signature
  let canonical =
    NCMBSignature.hasOnlyCanonicalEscapes(request.rawPath)
    && (method != .get || NCMBSignature.hasOnlyCanonicalEscapes(request.rawQuery ?? ""))
  let verifiable = url.host != nil && !applicationKey.isEmpty && !timestamp.isEmpty && canonical
  let verified = NCMBSignature.verify(
    request: signed, clientKey: clientKey, applicationKey: applicationKey)
  if verifiable {
    precondition(verified, "a signed request does not verify")
  } else if !canonical {
    precondition(!verified, "a request with non-canonical escapes verifies")
  }

  // One changed byte of the signature: refused.
  var signatureBytes = Array(signature.utf8)
  let index = Int(bytes[1]) % signatureBytes.count
  signatureBytes[index] =
    signatureBytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
  var tampered = signed
  tampered.headerFields[NCMBSignature.Header.signature] = String(
    decoding: signatureBytes, as: UTF8.self)
  precondition(
    !NCMBSignature.verify(request: tampered, clientKey: clientKey, applicationKey: applicationKey),
    "a changed signature verifies")
  return 0
}
