import BackendHTTP
import FirebaseTokenVerification
import Foundation
import UserBackendKit

#if canImport(CCrypto)
  import CCrypto
#endif

/// 8. Server-side ID token verification: `FirebaseTokenVerifier.verify` with a warm
/// certificate cache, one at a time (one core), against the raw OpenSSL RS256 verify
/// (`EVP_DigestVerifyInit` + `EVP_DigestVerify`) of the same signing input and signature
/// with the same key. Target: the verifier reaches ≥ 0.8 of raw throughput, i.e. its time
/// per token ≤ 1.25 × raw.
enum TokenVerifierBench {
  /// Verifications per timed batch.
  static let batch = 200

  /// Runs the group.
  static func run(_ plan: BenchPlan) async -> BenchGroup {
    var group = BenchGroup(
      id: "tokenVerify",
      title: "8. Firebase ID token verification, warm cache, one core, vs. raw OpenSSL RS256")
    #if canImport(CCrypto)
      do {
        let key = try RS256SigningKey.generate()
        let projectID = "demo-bench"
        let now = Date()
        let seconds = Int(now.timeIntervalSince1970)
        let token = key.token(
          claims: [
            "iss": "https://securetoken.google.com/\(projectID)", "aud": projectID,
            "sub": "bench-user", "user_id": "bench-user", "iat": seconds, "exp": seconds + 3600,
            "auth_time": seconds, "email": "bench@example.com", "email_verified": true,
            "firebase": [
              "sign_in_provider": "password", "identities": ["email": ["bench@example.com"]],
            ],
          ], keyID: "k1")
        let transport = StaticCertificates(pem: key.certificatePEM)
        let verifier = FirebaseTokenVerifier(
          configuration: .init(
            projectID: projectID, certificatesURL: URL(string: "http://127.0.0.1:1/certs")!),
          transport: transport, clock: ManualClock(now))
        _ = try await verifier.verify(token)  // warms the cache

        let parts = token.split(separator: ".")
        let signingInput = Data((parts[0] + "." + parts[1]).utf8)
        let signature = Base64URL.decode(parts[2]) ?? Data()
        let raw = try RawVerifier(pem: key.certificatePEM)
        guard raw.verify(signature, signingInput) else {
          group.error = "raw OpenSSL verify refused the token's own signature"
          return group
        }
        var failures = 0
        let verifierSamples = await BenchClock.repeated(
          warmUp: plan.warmUp, runs: plan.runs, perBatch: batch
        ) {
          for _ in 0..<batch where (try? await verifier.verify(token)) == nil { failures += 1 }
        }
        let rawSamples = await BenchClock.repeated(
          warmUp: plan.warmUp, runs: plan.runs, perBatch: batch
        ) {
          for _ in 0..<batch where !raw.verify(signature, signingInput) { failures += 1 }
        }
        group.rows = [
          BenchRow(
            "FirebaseTokenVerifier.verify, per token", unit: .seconds, samples: verifierSamples),
          BenchRow("raw EVP_DigestVerify RS256, per token", unit: .seconds, samples: rawSamples),
          BenchRow(
            "FirebaseTokenVerifier.verify, tokens per second", unit: .perSecond,
            samples: verifierSamples.map { 1 / $0 }),
          BenchRow(
            "raw EVP_DigestVerify RS256, verifications per second", unit: .perSecond,
            samples: rawSamples.map { 1 / $0 }),
        ]
        group.ratios = [
          BenchRatio(
            name: "verifier time / raw time (≤ 1.25 means ≥ 0.8 of raw throughput)",
            numerator: group.rows[0].statistics?.median,
            denominator: group.rows[1].statistics?.median, target: 1.25)
        ]
        group.checks = [
          BenchCheck(
            name: "verifications that failed", observed: "\(failures)", passed: failures == 0),
          BenchCheck(
            name: "certificate requests (warm cache: 1)", observed: "\(transport.requests)",
            passed: transport.requests == 1),
        ]
        group.notes = [
          "RSA-2048 key generated at start; \(batch) sequential verifications per batch; the "
            + "verifier parses the JWT, checks every claim and builds typed claims; raw "
            + "verifies the same bytes with an EVP_PKEY read once"
        ]
      } catch {
        group.error = "\(error)"
      }
    #else
      group.error = "needs OpenSSL (Linux)"
    #endif
    return group
  }
}

#if canImport(CCrypto)
  /// A certificate endpoint in memory: one document, `max-age` of a day, counted.
  private final class StaticCertificates: HTTPTransport {
    private let body: Data
    private let count = Counter()

    init(pem: String) {
      body = (try? JSONSerialization.data(withJSONObject: ["k1": pem])) ?? Data()
    }

    var requests: Int { count.value }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
      count.increment()
      return HTTPResponse(
        status: 200, headerFields: ["Cache-Control": "public, max-age=86400"], body: body)
    }
  }

  /// A thread-safe count.
  private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    var value: Int { lock.withLock { count } }
    func increment() { lock.withLock { count += 1 } }
  }

  /// The baseline: OpenSSL's RS256 verify with a key read once, nothing else.
  private final class RawVerifier: @unchecked Sendable {
    struct Failure: Error {}
    private let key: OpaquePointer

    init(pem: String) throws {
      let bytes = Array(pem.utf8)
      let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
        guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return nil }
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else { return nil }
        defer { X509_free(certificate) }
        return X509_get_pubkey(certificate)
      }
      guard let key else { throw Failure() }
      self.key = key
    }

    deinit { EVP_PKEY_free(key) }

    func verify(_ signature: Data, _ message: Data) -> Bool {
      guard let context = EVP_MD_CTX_new() else { return false }
      defer { EVP_MD_CTX_free(context) }
      guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key) == 1 else { return false }
      return signature.withUnsafeBytes { s in
        message.withUnsafeBytes { m in
          EVP_DigestVerify(
            context, s.bindMemory(to: UInt8.self).baseAddress, s.count,
            m.bindMemory(to: UInt8.self).baseAddress, m.count) == 1
        }
      }
    }
  }
#endif
