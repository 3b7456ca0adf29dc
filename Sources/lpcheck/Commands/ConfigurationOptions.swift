import ArgumentParser
import Foundation
import LivePhotoCheck
import LivePhotoCodecProtocol
import LivePhotoFormats
import LivePhotoReports
import LivePhotoRun

extension Target: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument) }
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension Expectation: ExpressibleByArgument {
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

extension Configuration.FailLevel: ExpressibleByArgument {
    // Spelled out: ArgumentParser's default describes each case through `String(describing:)`,
    // whose first protocol-conformance lookups are paid at every start (BENCHMARKS.md).
    public var defaultValueDescription: String { rawValue }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}

/// Help of the options `check`, `scan`, `repair` and `convert` share, written once: the option
/// groups below use it, and `check` declares the same options flat (`Check`).
enum SharedHelp {
    static let config: ArgumentHelp = "Configuration file (default: ./.lpcheck.yml when present)."
    static let baseline: ArgumentHelp = "An earlier JSON report: its findings are accepted, so only new ones fail (and repair leaves them alone)."
    static let failOn: ArgumentHelp = "Fail (exit 1) on findings at or above: error, warning, info, never. Default: the config's failOn, else error."
    static let expect: ArgumentHelp = "What every item should be, for gating a generator's output: live-photo or motion-photo. Any other item is an error (unexpected-item), with the reason. Default: the config's expect, else none."
    static let profile = ArgumentHelp("The target checked for: " + Target.allCases.map { "\($0.rawValue) (\($0.summary))" }.joined(separator: "; ")
        + ". photos is the default; wallpaper adds the lock screen's requirements; google-photos reports motion-photo rules, its verdict following Google's reader. Every item gets a verdict for each target that judges it. Default: the config's profile, else photos.")
    static let endpointUrl = ArgumentHelp("For s3:// paths: an S3-compatible service's address (path-style: URL/BUCKET/KEY). Default: AWS S3 of the region. Credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (AWS_SESSION_TOKEN) or ~/.aws/credentials (AWS_PROFILE).", valueName: "url")
    static let region: ArgumentHelp = "For s3:// paths: the region requests are signed for (default: AWS_REGION, AWS_DEFAULT_REGION, ~/.aws/config, else us-east-1)."
    static let timeout = ArgumentHelp("For s3:// paths: the whole seconds one try of a request may take, connecting to last byte (a deadline, not an idle limit); each request is tried 4 times at most.", valueName: "seconds")
    static let include = ArgumentHelp("Check only the files whose path matches this pattern (repeatable; * within a name, ** across folders, ? one character; a pattern without / matches a name at any depth). A quoted pattern given as a path does the same for the folder before its first wildcard.", valueName: "pattern")
    static let exclude = ArgumentHelp("Leave out files and folders whose path matches this pattern (repeatable), as the configuration's exclude.", valueName: "pattern")
    static let maxListPages: ArgumentHelp = "For s3:// paths: the pages one listing may take (1,000 keys a page on S3); a listing that goes on, or repeats a page's token, ends with an error."
}

/// Options shared by `check` and `repair`: the configuration file (default `./.lpcheck.yml`
/// when present), a baseline, and the gate. Both commands load them the same way.
struct ConfigurationOptions: ParsableArguments {
    @Option(help: SharedHelp.config)
    var config: String?

    @Option(help: SharedHelp.baseline)
    var baseline: String?

    @Option(help: SharedHelp.failOn)
    var failOn: Configuration.FailLevel?

    @Option(help: SharedHelp.expect)
    var expect: Expectation?

    @Option(help: SharedHelp.profile)
    var profile: Target?

    @Option(help: SharedHelp.include)
    var include: [String] = []

    @Option(help: SharedHelp.exclude)
    var exclude: [String] = []

    var run: RunSettings { Self.run(config: config, baseline: baseline, failOn: failOn, expect: expect, profile: profile, include: include, exclude: exclude) }

    /// The run layer's settings from these options, saying what it has to say on standard
    /// output and standard error.
    static func run(config: String?, baseline: String?, failOn: Configuration.FailLevel?, expect: Expectation?, profile: Target?,
                    include: [String] = [], exclude: [String] = []) -> RunSettings {
        var settings = RunSettings(config: config, baseline: baseline, failOn: failOn, version: LPCheck.configuration.version, io: .standard)
        settings.expect = expect
        settings.profile = profile
        (settings.include, settings.exclude) = (include, exclude)
        return settings
    }

    /// The paths to walk, with quoted globs among them made folders and include patterns.
    static func paths(_ given: [String], into settings: inout RunSettings) -> [String] {
        let (roots, globs) = GlobPaths.split(given)
        settings.include += globs
        return roots
    }
}

extension RunIO {
    /// Standard output (Swift's buffered `print`) and standard error.
    static let standard = RunIO(output: { print($0, terminator: "") }, error: { printError($0) }, flush: { fflush(nil) })
}

/// Runs `body`, a run layer's call: its failure becomes the process's exit status.
func exiting<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let failure as RunFailure {
        throw ExitCode(failure.status)
    }
}

/// The configuration options of the writers that gate on nothing (convert, strip, export): the
/// file, the profile and the paths. `--baseline`, `--fail-on` and `--expect` are taken as check
/// takes them, so one command line serves both, and left out of the help: they change nothing
/// these commands do (their exit status says what was written).
struct WriterConfigurationOptions: ParsableArguments {
    @Option(help: SharedHelp.config)
    var config: String?

    @Option(help: SharedHelp.profile)
    var profile: Target?

    @Option(help: SharedHelp.include)
    var include: [String] = []

    @Option(help: SharedHelp.exclude)
    var exclude: [String] = []

    @Option(help: .hidden) var baseline: String?
    @Option(help: .hidden) var failOn: Configuration.FailLevel?
    @Option(help: .hidden) var expect: Expectation?

    var run: RunSettings { ConfigurationOptions.run(config: config, baseline: baseline, failOn: failOn, expect: expect, profile: profile, include: include, exclude: exclude) }
}

/// Options of the commands that read object storage (check, scan).
struct ObjectStoreArguments: ParsableArguments {
    @Option(help: SharedHelp.endpointUrl)
    var endpointUrl: String?

    @Option(help: SharedHelp.region)
    var region: String?

    @Option(help: SharedHelp.timeout)
    var timeout: Int = ObjectStoreOptions.defaultTimeout

    @Option(help: SharedHelp.maxListPages)
    var maxListPages: Int = ObjectStoreOptions.defaultMaxListPages

    func validate() throws { try Self.validate(timeout: timeout, maxListPages: maxListPages) }

    static func validate(timeout: Int, maxListPages: Int) throws {
        guard (1...86_400).contains(timeout) else { throw ValidationError("--timeout takes whole seconds from 1 to 86400") }
        guard maxListPages > 0 else { throw ValidationError("--max-list-pages takes a whole number above 0") }
    }

    var options: ObjectStoreOptions { ObjectStoreOptions(endpoint: endpointUrl, region: region, timeout: Double(timeout), maxListPages: maxListPages) }
}

/// An output path that names nothing (`-o ""`) is a usage error: taken as it is, an empty folder
/// path writes into the current folder or, joined to a name, into `/`.
func requireOutputPath(_ path: String, _ option: String = "--output") throws {
    guard !path.isEmpty else { throw ValidationError("\(option) takes a path; an empty one names no folder or file") }
}

/// What the codec helper may spend on one piece of pixel work (make CLIP, make GIF, export's
/// re-encoded forms): each figure is held to the plan before any picture is decoded, and again
/// by the helper as it decodes.
struct CodecBudgetOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Pixels decoded, composited or encoded at most, every frame counted (default \(CodecBudget.standard.totalPixels)).", valueName: "pixels"))
    var maxTotalPixels: Int64?

    @Option(help: ArgumentHelp("Decoded pictures held at once at most, in MiB (default \(CodecBudget.standard.memoryBytes >> 20)); the codec helper's address space is this, 2 GiB and 640 bytes a pixel of the pictures.", valueName: "MiB"))
    var maxMemory: Int64?

    @Option(help: ArgumentHelp("Largest output an encode may write, in MiB, judged before it starts (default \(CodecBudget.standard.outputBytes >> 20)).", valueName: "MiB"))
    var maxOutput: Int64?

    @Option(help: ArgumentHelp("Seconds the codec helper may go without progress before it is stopped (default \(CodecBudget.standard.silenceSeconds)).", valueName: "seconds"))
    var codecDeadline: Int?

    func validate() throws {
        for (name, value) in [("--max-total-pixels", maxTotalPixels), ("--max-memory", maxMemory.map { $0 << 20 }), ("--max-output", maxOutput.map { $0 << 20 })] {
            if let value, !(1...CodecBudget.maxValue).contains(value) { throw ValidationError("\(name) takes a number from 1 to \(name == "--max-total-pixels" ? CodecBudget.maxValue : CodecBudget.maxValue >> 20)") }
        }
        if let codecDeadline, !(1...86_400).contains(codecDeadline) { throw ValidationError("--codec-deadline takes 1 to 86400 seconds") }
    }

    /// The budget these options make of the standard one.
    var budget: CodecBudget {
        var budget = CodecBudget.standard
        if let maxTotalPixels { budget.totalPixels = maxTotalPixels }
        if let maxMemory { budget.memoryBytes = maxMemory << 20 }
        if let maxOutput { budget.outputBytes = maxOutput << 20 }
        if let codecDeadline { budget.silenceSeconds = codecDeadline }
        return budget
    }
}
