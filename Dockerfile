# One image holds every binary: the manager, the load tester, the target app and the plugin.
# (No container engine runs on the dev machines here; hack/local-cluster builds the same
# layout as an OCI archive without one.)
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY api/ api/
COPY cmd/ cmd/
COPY controllers/ controllers/
COPY internal/ internal/
COPY config/samples/ config/samples/
RUN for b in manager loadtester perfapp kubectl-daprbench; do \
      CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/$b ./cmd/$b || exit 1; \
    done

FROM gcr.io/distroless/static:nonroot
COPY --from=build /out/ /
USER 65532:65532
ENTRYPOINT ["/manager"]
