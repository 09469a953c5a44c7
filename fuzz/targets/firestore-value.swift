// libFuzzer target: the Firestore typed-value decoder and encoder (FirebaseUserBackend
// FirestoreValue, FirestoreDocumentBody), as the document store reads and writes them.
//
// Input: any bytes, read as a Firestore `Document` answer (`{"fields": {...}}`).
// Invariants: decoding never traps; a refusal is the adapter's `.malformedResponse`; a
// decoded document encodes (with the adapter's encoder) to bytes that decode to equal
// values (NaN equal to NaN), and encoding those again gives the same bytes.
import Foundation
import UserBackendKit

@testable import FirebaseUserBackend

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  let body: FirestoreDocumentBody
  do throws(UserBackendError) {
    body = try FirestoreDocumentStore.decode(
      FirestoreDocumentBody.self, from: bytes, operation: "get")
  } catch {
    guard case .malformedResponse = error.code else {
      preconditionFailure("a refused answer is not malformedResponse: \(error.code.name)")
    }
    return 0
  }
  let fields = (body.fields ?? [:]).mapValues(\.value)
  // A decoded value always has a wire form (timestamps were parsed within 0001…9999).
  guard let encoded = try? FirestoreDocumentStore.encode(fields.mapValues(FirestoreValue.init))
  else { preconditionFailure("decoded fields do not encode") }
  guard
    let again = try? FirestoreDocumentStore.decode(
      [String: FirestoreValue].self, from: encoded, operation: "get")
  else { preconditionFailure("encoded fields do not decode") }
  let values = again.mapValues(\.value)
  precondition(same(.map(values), .map(fields)), "decode -> encode -> decode differs")
  guard let twice = try? FirestoreDocumentStore.encode(again) else {
    preconditionFailure("re-decoded fields do not encode")
  }
  precondition(twice == encoded, "encoding is not stable")
  return 0
}

/// Equality with NaN equal to NaN (and -0 distinct from +0 only by sign, as == has it).
func same(_ a: DocumentValue, _ b: DocumentValue) -> Bool {
  switch (a, b) {
  case (.double(let x), .double(let y)): return x == y || (x.isNaN && y.isNaN)
  case (.array(let x), .array(let y)):
    return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
  case (.map(let x), .map(let y)):
    return x.count == y.count
      && x.allSatisfy { key, value in y[key].map { same(value, $0) } ?? false }
  default: return a == b
  }
}
