import Foundation
import UserBackendContracts

/// The repository's `Contracts/` directory, found from this file's path.
let contractsDirectory = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Contracts")

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("contracts-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Writes `files` (name -> text) into a fresh directory and returns it.
func directory(with files: [String: String]) throws -> URL {
  let url = try makeTemporaryDirectory()
  for (name, text) in files {
    try Data(text.utf8).write(to: url.appendingPathComponent(name))
  }
  return url
}

/// The contract named `name` from `Contracts/`.
func bundledContract(_ name: String) throws -> Contract {
  try ContractLoader.load(file: contractsDirectory.appendingPathComponent(name + ".json"))
}
