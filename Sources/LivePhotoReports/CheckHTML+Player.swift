import Foundation
import LivePhotoCheck
import LivePhotoFormats

/// Cards that play their movie (`check --previews`): the preview in place of the still's
/// picture (which becomes its poster), played while the pointer is on the card or after a click,
/// muted and looping; the timeline's playhead follows it. One more inline script, allowed by its
/// hash; the movies come from beside the page (`media-src 'self'`), nothing else is fetched.
/// `#play=item-N` in the address plays that card's preview.
extension CheckHTML {
    static let playerScript = """
    (function () {
      Array.prototype.forEach.call(document.querySelectorAll('section.card'), function (card) {
        var video = card.querySelector('video.preview');
        if (!video) return;
        var line = card.querySelector('svg.timeline line.playhead');
        var seconds = line ? parseFloat(line.getAttribute('data-seconds')) : 0;
        function play() { var started = video.play(); if (started) started.catch(function () {}); }
        video.addEventListener('timeupdate', function () {
          var t = video.currentTime;
          video.setAttribute('data-played', t.toFixed(3));
          if (line && seconds > 0) {
            var x = (10 + Math.min(t, seconds) / seconds * 700).toFixed(2);
            line.setAttribute('x1', x);
            line.setAttribute('x2', x);
          }
        });
        card.addEventListener('mouseenter', play);
        card.addEventListener('mouseleave', function () { video.pause(); });
        video.addEventListener('click', function () { if (video.paused) play(); else video.pause(); });
      });
      var asked = new URLSearchParams(location.hash.slice(1)).get('play');
      var card = asked ? document.getElementById(asked) : null;
      var video = card ? card.querySelector('video.preview') : null;
      if (video) {
        card.scrollIntoView();
        var started = video.play();
        if (started) started.catch(function () {});
      }
    })();
    """

    /// The Content-Security-Policy's source for the player: its SHA-256, base64.
    static var playerSource: String { "'sha256-\(Data(SHA256.hash(Array(playerScript.utf8))).base64EncodedString())'" }

    /// The card's video: `address` relative to the page, percent-encoded; `poster` a data URL.
    static func previewElement(_ address: String, poster: String?) -> String {
        let encoded = address.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? address
        return "<video class=\"thumb preview\" src=\"\(Markup.escape(encoded))\"\(poster.map { " poster=\"\($0)\"" } ?? "") muted loop playsinline preload=\"metadata\" title=\"the movie: point at the card or click to play\"></video>\n"
    }
}

extension CheckItem {
    /// The address of the preview of this item's movie (a pair's movie, a motion photo's
    /// embedded one), when `check --previews` made one.
    public var preview: String? { movie?.preview ?? still?.preview }
}
