import LivePhotoFormats

/// Motion-photo facts for examples.
public enum MotionPhotoFacts {
    public static func make(found: Bool) -> MotionPhoto {
        MotionPhoto(source: "Container", version: "1", videoOffset: 131_582, videoLength: 8_730, videoFound: found, presentationTimestampUs: 0)
    }
}
