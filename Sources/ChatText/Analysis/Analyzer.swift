// The files of Analysis/ are the only Swift files that talk to CChatICU: they own every unsafe
// pointer and C callback.
import CChatICU

/// The analyser's identity.
package enum Analyzer {
    /// Version of the normaliser and tokenizer rules: indexes built with another version
    /// must be rebuilt.
    package static var version: Int { Int(cchaticu_analyzer_version()) }
}
