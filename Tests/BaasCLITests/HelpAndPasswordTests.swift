import Foundation
import Testing

@Suite(
  "baas --help everywhere; the password is never an argument nor printed", .timeLimit(.minutes(10)))
struct HelpAndPasswordTests {
  @Test("baas --help lists the commands and exits 0")
  func topLevelHelp() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    for arguments in [["--help"], ["-h"], ["help"]] {
      let result = try await baas.run(arguments)
      #expect(result.status == 0)
      #expect(result.standardOutput.contains("usage: baas"))
      for command in ["signup", "signin", "whoami", "token", "signout", "verify", "emulator"] {
        #expect(result.standardOutput.contains("  \(command) "))
      }
    }
  }

  /// The README's synopsis is the list `baas --help` prints, line for line, as it says.
  @Test("the README's synopsis block is exactly the usage line and commands of baas --help")
  func readmeSynopsisMatchesHelp() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let help = try await baas.run(["--help"]).standardOutput.components(separatedBy: "\n")
    let commandsStart = (help.firstIndex(of: "commands:") ?? help.endIndex) + 1
    let commands = help[min(commandsStart, help.endIndex)...].prefix { !$0.isEmpty }
    let expected = [String(help.first?.dropFirst("usage: ".count) ?? "")] + commands
    let readme = try String(
      contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let block = readme.components(separatedBy: "```\nbaas [").dropFirst().first
      .map { "baas [" + $0.components(separatedBy: "\n```").first! }
    #expect(block?.components(separatedBy: "\n") == expected)
  }

  @Test("every command listed by --help has its own --help")
  func everyCommandHasHelp() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let usage = try await baas.run(["--help"]).standardOutput
    let lines = usage.split(separator: "\n", omittingEmptySubsequences: false)
    let start = try #require(lines.firstIndex(of: "commands:"))
    var commands: [[String]] = []
    for line in lines[(start + 1)...] {
      guard line.hasPrefix("  ") else { break }
      // "  cassette lint  DIR": the command name is the words before the double space.
      let name = line.dropFirst(2).components(separatedBy: "  ")[0]
      commands.append(name.split(separator: " ").map(String.init))
    }
    #expect(commands.count >= 10)
    for command in commands {
      let result = try await baas.run(command + ["--help"])
      #expect(result.status == 0, "\(command) --help: \(result.allOutput)")
      #expect(result.standardOutput.hasPrefix("usage: baas"), "\(command)")
      #expect(result.standardOutput.contains(command.joined(separator: " ")))
    }
  }

  @Test("--password-stdin reads one line; BAAS_PASSWORD works in another process")
  func passwordStandardInput() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email, "--password-stdin"],
      input: account.password + "\nignored second line\n")
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    _ = try await baas.run(["signout"])
    let signIn = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signIn.status == 0, "\(signIn.allOutput)")
    _ = try await baas.run(["signout"])
    let wrong = try await baas.run(
      ["signin", "--email", account.email, "--password-stdin"],
      input: account.password + " \n")
    #expect(wrong.status == 1, "the password is not trimmed")
    #expect(wrong.standardError.contains("invalidCredentials"))
  }

  @Test("--password-stdin wins over BAAS_PASSWORD")
  func standardInputWins() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email, "--password-stdin"],
      environment: ["BAAS_PASSWORD": "environment-pw"], input: account.password + "\n")
    try #require(signUp.status == 0)
    _ = try await baas.run(["signout"])
    let signIn = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signIn.status == 0)
  }

  @Test("without BAAS_PASSWORD, --password-stdin or a terminal: usage error, exit 2")
  func noPassword() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["signup", "--email", uniqueAccount().email])
    #expect(result.status == 2)
    #expect(result.standardError.contains("BAAS_PASSWORD"))
    let empty = try await baas.run(
      ["signup", "--email", uniqueAccount().email, "--password-stdin"], input: "")
    #expect(empty.status == 2)
  }

  @Test("the password is never echoed, whatever the command or outcome")
  func neverEchoed() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let environment = ["BAAS_PASSWORD": account.password]
    var outputs: [String] = []
    for arguments in [
      ["signup", "--email", account.email], ["signup", "--email", account.email, "--json"],
      ["whoami"], ["whoami", "--json"], ["signout"],
      ["signin", "--email", account.email, "--json"], ["signin", "--email", account.email],
      ["signin", "--email", "other-" + account.email], ["signup", "--email", "bad"],
      ["--backend", "firebase", "signin", "--email", account.email],
    ] {
      outputs.append(try await baas.run(arguments, environment: environment).allOutput)
    }
    outputs.append(
      try await baas.run(
        ["signin", "--email", account.email, "--password-stdin"], input: account.password + "\n"
      ).allOutput)
    for output in outputs {
      #expect(!output.contains(account.password), "password echoed in: \(output)")
    }
    #expect(outputs[0].contains(account.email), "the runs did produce output")
  }

  @Test(
    "a password given as an argument is refused without being echoed",
    arguments: [["--password", "Tr0ub4dor-pw"], ["--password=Tr0ub4dor-pw"], ["Tr0ub4dor-pw"]])
  func passwordArgument(extra: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["signup", "--email", uniqueAccount().email] + extra)
    #expect(result.status == 2)
    #expect(!result.allOutput.contains("Tr0ub4dor"), "\(result.allOutput)")
    let global = try await baas.run(extra + ["whoami"])
    #expect(global.status == 2)
    #expect(!global.allOutput.contains("Tr0ub4dor"), "\(global.allOutput)")
  }
}
