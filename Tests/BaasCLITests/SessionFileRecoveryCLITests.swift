import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A session file baas cannot use (too large, corrupt, readable by others) never locks
/// the user out: `whoami` names it and says that signing out removes it, `signout`
/// removes it (saying so on standard error, without its content), `signin` replaces it.
/// A session file that is a symbolic link is refused by every command.
@Suite("baas recovers from an unusable session file", .timeLimit(.minutes(2)))
struct SessionFileRecoveryCLITests {
  static let marker = "REFRESH-TOKEN-MARKER-7d1e"

  /// Replaces the session file with more than 1 MiB of JSON holding the marker.
  static func writeOversized(_ file: URL) throws {
    let padding = String(repeating: "x", count: 1 << 20)
    try Data(#"{"session":{"refreshToken":"\#(marker)\#(padding)"}}"#.utf8).write(to: file)
    chmod(file.path, 0o600)
  }

  @Test("oversized: whoami explains, signout removes, signin replaces")
  func oversized() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signup = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signup.status == 0, "\(signup.allOutput)")
    let file = baas.home.appendingPathComponent("fake.session.json")

    try Self.writeOversized(file)
    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 2, "\(whoami.allOutput)")
    #expect(whoami.standardError.contains(file.path))
    #expect(whoami.standardError.contains("signing out removes it"))
    #expect(!whoami.allOutput.contains(Self.marker))

    let signout = try await baas.run(["signout"])
    #expect(signout.status == 0, "\(signout.allOutput)")
    #expect(signout.standardError.contains("discarding the session file \(file.path)"))
    #expect(!signout.allOutput.contains(Self.marker))
    #expect(!FileManager.default.fileExists(atPath: file.path))

    try Self.writeOversized(file)
    let signin = try await baas.run(["signin", "--email", account.email], environment: password)
    #expect(signin.status == 0, "\(signin.allOutput)")
    #expect(!signin.allOutput.contains(Self.marker))
    let again = try await baas.run(["whoami"])
    #expect(again.status == 0, "\(again.allOutput)")
    #expect(again.standardOutput.contains(account.email))
  }

  @Test("a session file readable by others: whoami refuses it naming the mode; signout removes it")
  func groupReadable() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signup = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signup.status == 0, "\(signup.allOutput)")
    let file = baas.home.appendingPathComponent("fake.session.json")
    chmod(file.path, 0o644)

    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 2, "\(whoami.allOutput)")
    #expect(whoami.standardError.contains(file.path))
    #expect(whoami.standardError.contains("0644"))
    let signout = try await baas.run(["signout"])
    #expect(signout.status == 0, "\(signout.allOutput)")
    #expect(!FileManager.default.fileExists(atPath: file.path))
  }

  @Test("a session file that is a symbolic link: every command refuses it, nothing removed")
  func symbolicLink() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signup = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signup.status == 0, "\(signup.allOutput)")
    let file = baas.home.appendingPathComponent("fake.session.json")
    let target = baas.home.appendingPathComponent("elsewhere.json")
    try FileManager.default.moveItem(at: file, to: target)
    try FileManager.default.createSymbolicLink(atPath: file.path, withDestinationPath: target.path)

    for arguments in [["whoami"], ["signout"]] {
      let result = try await baas.run(arguments)
      #expect(result.status == 2, "\(arguments): \(result.allOutput)")
      #expect(result.standardError.contains(file.path))
      #expect(result.standardError.contains("symbolic link"))
    }
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: file.path) == target.path)
    #expect(FileManager.default.fileExists(atPath: target.path))
  }
}
