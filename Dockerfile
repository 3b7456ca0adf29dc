# A small image with lpcheck (documented, not built by the tests: no Docker engine runs where
# they do). Build: docker build -t lpcheck .   Run: docker run --rm -v "$PWD:/data" lpcheck check /data
# Stage 1 builds the self-contained binary; stage 2 carries it with the C libraries it needs.
FROM swift:6.1-bookworm AS build
WORKDIR /src
COPY . .
RUN ./Scripts/build-release.sh /dist

FROM debian:bookworm-slim
# libcurl4 and ca-certificates serve s3:// paths (https); libheif1 only serves check --thumbnails
# (loaded at run time); drop it for a smaller image.
RUN apt-get update && apt-get install -y --no-install-recommends libexif12 libxml2 libsqlite3-0 libcurl4 ca-certificates libheif1 && rm -rf /var/lib/apt/lists/*
COPY --from=build /dist/bin/lpcheck /usr/local/bin/lpcheck
COPY --from=build /dist/share /usr/local/share
ENTRYPOINT ["lpcheck"]
