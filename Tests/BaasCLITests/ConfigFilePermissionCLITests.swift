import Foundation
import Testing

/// `baas` refuses a config file others may read when it holds a key, and one others may
/// write, before anything else: exit 2, naming the option and the file, never a value.
@Suite("baas: the config file's permissions", .timeLimit(.minutes(2)))
struct ConfigFilePermissionCLITests {
  @Test(
    "a shared config file is refused by --config and BAAS_CONFIG",
    arguments: [
      (#"{"backend":"ncmb","ncmb":{"applicationKey":"horse-a","clientKey":"horse-c"}}"#, 0o644),
      (#"{"backend":"fake"}"#, 0o666),
    ])
  func sharedConfigFile(text: String, mode: Int) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let file = baas.home.appendingPathComponent("config.json")
    try Data(text.utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
    for (arguments, environment, option) in [
      (["--config", file.path, "whoami"], [String: String](), "--config"),
      (["whoami"], ["BAAS_CONFIG": file.path], "BAAS_CONFIG"),
    ] {
      let result = try await baas.run(arguments, environment: environment)
      #expect(result.status == 2, "\(result.allOutput)")
      #expect(result.standardError.contains("(\(option))"), "\(result.allOutput)")
      #expect(result.standardError.contains(file.path), "\(result.allOutput)")
      #expect(result.standardError.contains("chmod 600 \(file.path)"), "\(result.allOutput)")
      #expect(!result.allOutput.contains("horse"), "\(result.allOutput)")
    }
  }
}
