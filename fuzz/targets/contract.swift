// libFuzzer target: the contract loader (UserBackendContracts ContractLoader.decode).
//
// Invariants: loading never traps; a refusal is a ContractLoadError whose description
// names the file.
import Foundation
import UserBackendContracts

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  do {
    _ = try ContractLoader.decode(bytes, path: "fuzz.json")
  } catch let error as ContractLoadError {
    precondition(String(describing: error).contains("fuzz.json"), "error does not name the file")
  } catch {
    preconditionFailure("not a ContractLoadError: \(type(of: error))")
  }
  return 0
}
