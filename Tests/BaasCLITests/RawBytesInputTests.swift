import Foundation
import Testing

/// Arguments and environment variables are read as bytes: one that is not valid UTF-8 is
/// refused (exit 2) naming the option or variable, never silently turned into U+FFFD
/// (`pw\xFE…` and `pw\xFF…` would be one password, `BAAS_HOME=/tmp/d\xFF` another
/// directory). The value is never printed. Variables `baas` does not read do not matter.
@Suite("Non-UTF-8 arguments and variables are refused by name", .timeLimit(.minutes(2)))
struct RawBytesInputTests {
  /// Runs `script` with `/bin/sh -c`, where `$BAAS` is the baas executable; the script
  /// makes the raw bytes with `printf` (Foundation's `Process` takes only `String`s).
  static func shell(_ baas: Baas, _ script: String, environment extra: [String: String] = [:])
    async throws -> BaasResult
  {
    let executable = try #require(Baas.executable, "the baas executable was not found")
    var environment = [
      "BAAS_HOME": baas.home.path, "HOME": baas.home.path, "PATH": "/usr/bin:/bin",
      "LANG": "C.UTF-8", "BAAS": executable.path,
    ]
    environment.merge(Baas.sanitizerOptions) { _, passed in passed }
    for (key, value) in extra { environment[key] = value }
    return try await Baas.launch(
      URL(fileURLWithPath: "/bin/sh"), ["-c", script], environment: environment, input: nil,
      timeout: 60)
  }

  @Test(
    "an option value or argument that is not UTF-8 is refused naming the option",
    arguments: [
      (#"exec "$BAAS" signup --email "$(printf 'a\377@example.com')""#, "--email"),
      (#"exec "$BAAS" signin "--email=$(printf 'a\376@example.com')""#, "--email"),
      (#"exec "$BAAS" --backend "$(printf 'fa\377ke')" whoami"#, "--backend"),
      (#"exec "$BAAS" "--config=$(printf '/tmp/c\377')" whoami"#, "--config"),
      (#"exec "$BAAS" whoami --config "$(printf '/tmp/c\377')""#, "--config"),
      (#"exec "$BAAS" doc set "$(printf 'x=\377')""#, "an argument"),
      (#"exec "$BAAS" "$(printf '\055\055\377')" whoami"#, "an argument"),
      (#"exec "$BAAS" bench "$(printf '\377')""#, "an argument"),
    ])
  func arguments(script: String, named: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await Self.shell(
      baas, script, environment: ["BAAS_PASSWORD": "pw-horse-77"])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains(named), "\(result.allOutput)")
    #expect(result.standardError.contains("not valid UTF-8"), "\(result.allOutput)")
    #expect(!result.allOutput.contains("\u{FFFD}"), "\(result.allOutput)")
    // Nothing was created under a changed name.
    let database = baas.home.appendingPathComponent("fake.sqlite")
    #expect(!FileManager.default.fileExists(atPath: database.path))
  }

  @Test(
    "a variable baas reads that is not UTF-8 is refused naming it, its value never shown",
    arguments: [
      ("BAAS_PASSWORD", #"pw\376horse77"#, "signup --email a@example.com"),
      ("BAAS_PASSWORD", #"pw\377horse77"#, "signin --email a@example.com"),
      ("BAAS_HOME", #"/tmp/baas-raw-\377"#, "whoami"),
      ("BAAS_BACKEND", #"fa\377ke"#, "whoami"),
      ("BAAS_CONFIG", #"/tmp/c\377.json"#, "whoami"),
      ("BAAS_APP_VERIFICATION", #"recaptcha:horse\377"#, "phone start --phone-number +15555550100"),
      ("FIREBASE_PROJECT_ID", #"horse\377"#, "token verify"),
      ("NCMB_CLIENT_KEY", #"horse\377"#, "--backend ncmb whoami"),
      ("FIREBASE_API_KEY", #"horse\377"#, "--backend firebase whoami"),
    ])
  func variables(name: String, bytes: String, command: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await Self.shell(
      baas, #"\#(name)="$(printf '\#(bytes)')" exec "$BAAS" \#(command)"#,
      environment: ["NCMB_APPLICATION_KEY": "app", "NCMB_CLIENT_KEY": "client"])
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains(name), "\(result.allOutput)")
    #expect(result.standardError.contains("not valid UTF-8"), "\(result.allOutput)")
    #expect(!result.allOutput.contains("horse"), "\(result.allOutput)")
    #expect(!FileManager.default.fileExists(atPath: "/tmp/baas-raw-\u{FFFD}"))
  }

  @Test(
    "a variable baas does not read (or another backend's) does not matter",
    arguments: [
      "FOO", "LC_FOO", "NCMB_CLIENT_KEY", "FIREBASE_API_KEY", "BAAS_PASSWORD",
      "BAAS_APP_VERIFICATION", "HOME",
    ])
  func unreadVariables(name: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    // The fake backend, BAAS_HOME set: whoami reads none of these.
    let result = try await Self.shell(
      baas, #"\#(name)="$(printf 'x\377')" exec "$BAAS" whoami"#)
    #expect(result.status == 0 || result.status == 1, "\(result.allOutput)")
    #expect(!result.standardError.contains("UTF-8"), "\(result.allOutput)")
  }

  @Test("a valid U+FFFD in a password is an ordinary character")
  func literalReplacementCharacter() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let signup = try await baas.run(
      ["signup", "--email", "a@example.com"], environment: ["BAAS_PASSWORD": "pw\u{FFFD}horse77"])
    #expect(signup.status == 0, "\(signup.allOutput)")
  }
}
