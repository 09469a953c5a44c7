/// The fixed NCMB application key and client key the emulator accepts by default.
///
/// These are **public demo values**, published in this source file and printed by
/// `baas emulator` at start-up, so that any client (the vendors' SDKs, curl, the NCMB
/// adapter) can talk to a local emulator without configuration. They protect nothing:
/// never use them for a service reachable by others. Both are 64 lower-case hex digits,
/// the shape of real NCMB keys (`docs/wire/ncmb.md` §1).
public enum NCMBDemoKeys {
  /// The demo application key (`X-NCMB-Application-Key`; sent on the wire).
  public static let applicationKey =
    "50b5bd9833dca48def78312b1ff10ab2a547c8a12e796741977f40001fbb6d05"
  /// The demo client key (the HMAC key of signature v2; never sent on the wire).
  public static let clientKey =
    "a55e2a0ba9b0b46ddcb901baab2b298e302c7d630d42dfdcec15c3c27143967b"
}
