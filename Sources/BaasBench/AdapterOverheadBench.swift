import BackendEmulator
import BackendHTTP
import FirebaseUserBackend
import Foundation
import NCMBUserBackend
import UserBackendKit

/// 1. Adapter overhead: a password sign-in through ``FirebaseUserBackend`` and through
/// ``NCMBUserBackend`` (request signature included) against the loopback emulator, versus
/// sending the very same request bytes (captured from the adapter) with a bare transport
/// of the same kind (`NetworkTransport.standard()`: ``CurlTransport`` on Linux) to the
/// same server. Target: adapter / direct ≤ 1.05. The same bytes through a bare
/// ``URLSessionTransport`` are timed too, for the transport's share.
///
/// The emulator hashes with PBKDF2 cost 1 here, so the server's work is small and the
/// client side is what the ratio sees (a realistic cost would hide any overhead). The
/// variants run interleaved request by request, so drift affects them alike.
enum AdapterOverheadBench {
  /// The emulator's PBKDF2 rounds for this group.
  static let hashCost = 1
  /// The benchmark account's password (in-process only, never printed).
  static let password = "bench-password-1"

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "adapterOverhead", title: "1. Adapter overhead: sign-in over loopback, per request")
    let emulator: BenchEmulator
    do {
      emulator = try BenchEmulator.start(hashCost: hashCost)
    } catch {
      group.error = "emulator: \(error)"
      return group
    }
    do {
      // One real sign-up and sign-in per adapter through a recording wrapper gives the
      // request bytes and the response; the timed adapters use bare transports.
      let firebaseCredential = PasswordCredential.email("adapter@bench.invalid", password: password)
      let (firebaseRequest, firebaseResponse) = try await capture(
        "Firebase", firebaseCredential
      ) { try makeFirebase(emulator, $0) }
      let firebase = try makeFirebase(emulator, NetworkTransport.standard())
      let firebaseCanned = try makeFirebase(emulator, CannedTransport(response: firebaseResponse))

      let ncmbCredential = PasswordCredential.username("adapter-bench", password: password)
      let (ncmbRequest, ncmbResponse) = try await capture("NCMB", ncmbCredential) {
        try makeNCMB(emulator, $0)
      }
      let ncmb = try makeNCMB(emulator, NetworkTransport.standard())
      let ncmbCanned = try makeNCMB(emulator, CannedTransport(response: ncmbResponse))

      // One direct transport per adapter, as each adapter has its own: a shared one would
      // give the direct rows a session and connection used twice per round, against once
      // for each adapter's.
      let directFirebase = NetworkTransport.standard()
      let directNCMB = NetworkTransport.standard()
      let sessionFirebase = URLSessionTransport()
      let sessionNCMB = URLSessionTransport()
      for (transport, request, name) in [
        (directFirebase, firebaseRequest, "Firebase"), (directNCMB, ncmbRequest, "NCMB"),
        (sessionFirebase, firebaseRequest, "Firebase"), (sessionNCMB, ncmbRequest, "NCMB"),
      ] as [(any HTTPTransport, HTTPRequest, String)] {
        try await expectSuccess(transport, request, name)
      }
      let transportName = "\(type(of: directFirebase))"

      let batch = plan.adapterBatch
      var samples: [[Double]] = Array(repeating: [], count: 8)
      let variants: [@Sendable () async throws -> Void] = [
        { _ = try await firebase.signIn(firebaseCredential) },
        { _ = try await directFirebase.send(firebaseRequest) },
        { _ = try await ncmb.signIn(ncmbCredential) },
        { _ = try await directNCMB.send(ncmbRequest) },
        { _ = try await firebaseCanned.signIn(firebaseCredential) },
        { _ = try await ncmbCanned.signIn(ncmbCredential) },
        { _ = try await sessionFirebase.send(firebaseRequest) },
        { _ = try await sessionNCMB.send(ncmbRequest) },
      ]
      // Interleaved request by request, so load changes on the machine hit every variant
      // alike; each request is timed on its own and the batch sums them.
      for run in 0..<(plan.warmUp + plan.runs) {
        var totals = Array(repeating: 0.0, count: variants.count)
        for _ in 0..<batch {
          for (index, variant) in variants.enumerated() {
            totals[index] += try await BenchClock.time { try await variant() }
          }
        }
        guard run >= plan.warmUp else { continue }
        for index in variants.indices { samples[index].append(totals[index] / Double(batch)) }
      }
      let rows = [
        BenchRow("Firebase sign-in via FirebaseUserBackend", unit: .seconds, samples: samples[0]),
        BenchRow(
          "Firebase: same bytes via \(transportName)", unit: .seconds, samples: samples[1]),
        BenchRow("NCMB sign-in via NCMBUserBackend (signed)", unit: .seconds, samples: samples[2]),
        BenchRow("NCMB: same bytes via \(transportName)", unit: .seconds, samples: samples[3]),
        BenchRow(
          "Firebase: same bytes via URLSessionTransport", unit: .seconds, samples: samples[6]),
        BenchRow("NCMB: same bytes via URLSessionTransport", unit: .seconds, samples: samples[7]),
        BenchRow("Firebase adapter alone (canned response)", unit: .seconds, samples: samples[4]),
        BenchRow("NCMB adapter alone (canned response)", unit: .seconds, samples: samples[5]),
      ]
      group.rows = rows
      group.ratios = [
        BenchRatio(
          name: "Firebase adapter / direct", pairedNumerators: samples[0],
          denominators: samples[1], target: 1.05),
        BenchRatio(
          name: "NCMB adapter / direct", pairedNumerators: samples[2], denominators: samples[3],
          target: 1.05),
      ]
      group.notes = [
        "emulator on 127.0.0.1:\(emulator.port), PBKDF2 cost \(hashCost) "
          + "(server work kept small so client overhead shows)",
        "\(batch) sign-ins per variant and run, interleaved; every networked variant has its own "
          + "transport (one keep-alive connection); times are per request",
        "adapters over NetworkTransport.standard() (\(transportName)); the URLSessionTransport "
          + "rows send the same bytes through URLSession, for the transport's share",
        "canned rows: the adapter over a transport that returns the recorded response at "
          + "once (its own client-side work, no socket)",
        "ratios: the median of the per-run ratios (both variants timed in the same runs)",
      ]
    } catch {
      group.error = "\(error)"
    }
    await emulator.shutDown()
    return group
  }

  /// A Firebase adapter for the emulator over `transport`, with its own session store.
  private static func makeFirebase(_ emulator: BenchEmulator, _ transport: any HTTPTransport)
    throws -> FirebaseUserBackend
  {
    try FirebaseUserBackend(
      configuration: FirebaseConfiguration(
        apiKey: BenchEmulator.firebaseAPIKey, projectID: "demo-project",
        emulatorHost: emulator.hostAndPort),
      transport: transport, sessionStore: InMemorySessionStore())
  }

  /// An NCMB adapter for the emulator (demo keys) over `transport`, with its own session
  /// store.
  private static func makeNCMB(_ emulator: BenchEmulator, _ transport: any HTTPTransport)
    throws -> NCMBUserBackend
  {
    try NCMBUserBackend(
      configuration: NCMBConfiguration(
        applicationKey: NCMBDemoKeys.applicationKey, clientKey: NCMBDemoKeys.clientKey,
        baseURL: emulator.baseURL),
      transport: transport, sessionStore: InMemorySessionStore())
  }

  /// Signs `credential` up and in through an adapter made by `make` over a recording
  /// transport, and returns the sign-in's request (what went on the wire) and response.
  private static func capture(
    _ name: String, _ credential: PasswordCredential,
    _ make: (any HTTPTransport) throws -> any UserBackend
  ) async throws -> (HTTPRequest, HTTPResponse) {
    let transport = CountingTransport(wrapping: NetworkTransport.standard())
    let backend = try make(transport)
    _ = try await backend.signUp(credential)
    _ = try await backend.signIn(credential)
    guard let request = transport.lastRequest, let response = transport.lastResponse else {
      throw BenchFailure("\(name) adapter sent no request")
    }
    return (request, response)
  }

  /// Sends `request` once and insists on a 2xx answer, so the direct path does the same
  /// work as the adapter.
  private static func expectSuccess(
    _ transport: any HTTPTransport, _ request: HTTPRequest, _ name: String
  ) async throws {
    let response = try await transport.send(request)
    guard response.isSuccess else {
      throw BenchFailure("\(name) request replayed directly got HTTP \(response.status)")
    }
  }
}

/// A benchmark precondition that did not hold (the message names it; never a secret).
struct BenchFailure: Error, CustomStringConvertible {
  /// What went wrong.
  let description: String
  /// A failure described by `description`.
  init(_ description: String) { self.description = description }
}
