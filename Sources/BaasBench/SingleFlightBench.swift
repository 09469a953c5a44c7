import BackendHTTP
import FirebaseUserBackend
import Foundation
import UserBackendKit

/// 3. Single-flight refresh: many concurrent `idToken()` calls on an expired Firebase
/// session against the loopback emulator must cause exactly one Secure Token request
/// (counted by a wrapping transport), and should take little longer than one refresh.
///
/// Each run signs in afresh, moves the `ManualClock` shared by the adapter and the emulator
/// two hours ahead (the ID token is then expired on both sides, and the refreshed one has
/// a later issue time) and times the callers from the first call until the last returns.
/// Single refreshes run interleaved.
enum SingleFlightBench {
  /// The Secure Token path the count looks for.
  static let tokenPathMarker = "securetoken.googleapis.com"

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    let callers = plan.singleFlightCallers
    var group = BenchGroup(
      id: "singleFlight",
      title:
        "3. Single-flight refresh: \(callers.formatted()) concurrent idToken() on an expired session"
    )
    // One clock for the adapter and the emulator: moving it ahead expires the session for
    // both, and the refreshed ID token gets a later issue time, as in real use.
    let clock = ManualClock(Date())
    let emulator: BenchEmulator
    do {
      emulator = try BenchEmulator.start(hashCost: 1, clock: clock)
    } catch {
      group.error = "emulator: \(error)"
      return group
    }
    do {
      let transport = CountingTransport(
        wrapping: NetworkTransport.standard(), counting: tokenPathMarker)
      let backend = try FirebaseUserBackend(
        configuration: FirebaseConfiguration(
          apiKey: BenchEmulator.firebaseAPIKey, projectID: "demo-project",
          emulatorHost: emulator.hostAndPort),
        transport: transport, sessionStore: InMemorySessionStore(), clock: clock)
      let credential = PasswordCredential.email(
        "refresh@bench.invalid", password: "bench-password-1")
      _ = try await backend.signUp(credential)

      var single: [Double] = []
      var concurrent: [Double] = []
      var counts: [Int] = []
      var failures = 0
      for run in 0..<(plan.warmUp + plan.runs) {
        try await expire(backend, credential, clock, transport)
        let one = try await BenchClock.time { _ = try await backend.idToken(forceRefresh: false) }
        let oneCount = transport.count

        try await expire(backend, credential, clock, transport)
        var failed = 0
        let many = await BenchClock.time {
          failed = await withTaskGroup(of: Bool.self) { tasks in
            for _ in 0..<callers {
              tasks.addTask { (try? await backend.idToken(forceRefresh: false)) != nil }
            }
            var failed = 0
            for await succeeded in tasks where !succeeded { failed += 1 }
            return failed
          }
        }
        guard run >= plan.warmUp else { continue }
        single.append(one)
        concurrent.append(many)
        counts.append(transport.count)
        failures += failed
        if oneCount != 1 { counts.append(oneCount) }
      }
      group.rows = [
        BenchRow("one idToken() refresh alone", unit: .seconds, samples: single),
        BenchRow(
          "\(callers.formatted()) concurrent idToken(), all returned", unit: .seconds,
          samples: concurrent),
      ]
      group.ratios = [
        BenchRatio(
          name: "\(callers.formatted()) concurrent / one refresh",
          numerator: group.rows[1].statistics?.median, denominator: group.rows[0].statistics?.median
        )
      ]
      let distinct = Set(counts).sorted().map(String.init).joined(separator: ",")
      group.checks = [
        BenchCheck(
          name: "token requests per expired session (every run)", observed: distinct,
          passed: counts.allSatisfy { $0 == 1 }),
        BenchCheck(
          name: "idToken() calls that failed", observed: "\(failures)", passed: failures == 0),
      ]
      group.notes = [
        "adapter and emulator share a ManualClock moved 2 h ahead after each fresh sign-in; "
          + "Secure Token requests counted by a wrapping HTTPTransport; emulator on loopback"
      ]
    } catch {
      group.error = "\(error)"
    }
    await emulator.shutDown()
    return group
  }

  /// Signs in afresh, expires the ID token for the adapter and resets the count.
  private static func expire(
    _ backend: FirebaseUserBackend, _ credential: PasswordCredential, _ clock: ManualClock,
    _ transport: CountingTransport
  ) async throws {
    _ = try await backend.signIn(credential)
    clock.advance(by: 2 * 3600)
    transport.reset()
  }
}
