import Foundation
import Testing

/// Several `baas` processes using a fresh state directory at once: each creates or opens
/// the new fake database, none calls it "another application's" (a torn read of the
/// stamps while another process's schema transaction commits).
@Suite("baas: concurrent first use of a fresh BAAS_HOME", .timeLimit(.minutes(2)))
struct FreshHomeConcurrencyTests {
  @Test func parallelSignUpsInAFreshHomeAllSucceed() async throws {
    var failures: [String] = []
    for _ in 0..<12 {
      var baas = try Baas()
      defer { baas.cleanUp() }
      // A directory that does not exist yet: the first processes create it too.
      let home = baas.home.appendingPathComponent("state", isDirectory: true)
      baas.environment["BAAS_HOME"] = home.path
      let results = try await withThrowingTaskGroup(of: BaasResult.self) { group in
        for index in 0..<6 {
          let runner = baas
          group.addTask {
            try await runner.run(
              ["signup", "--email", "u\(index)@example.com"],
              environment: ["BAAS_PASSWORD": "pw-horse-77"])
          }
        }
        return try await group.reduce(into: [BaasResult]()) { $0.append($1) }
      }
      // None fails: neither the misreport nor "database is locked" (a busy timeout
      // outwaited while the schema is created).
      failures += results.filter { $0.status != 0 }.map(\.standardError)
    }
    #expect(failures.isEmpty, "\(failures.count) failed, e.g. \(failures.prefix(2))")
  }
}
