# daprbench — build, test and deploy. `make help` lists the targets.

# Image that holds every binary (manager, loadtester, perfapp).
IMG ?= daprbench:dev
# Kubernetes version of the envtest API server (and of the local cluster).
ENVTEST_K8S_VERSION ?= 1.36.3
# Dapr release: one pin for the CRDs envtest validates against, the sidecar and control plane
# built from Go modules (hack/toolchain/build-dapr.sh) and the Helm chart that installs them.
# v1.16.0 is the newest whose every module the proxy serves; v1.14.0 builds and installs too.
DAPR_VERSION ?= v1.16.0
# Prometheus 3.5.0 (LTS), built from Go modules for the alerting-rule tests and the local cluster.
PROMETHEUS_VERSION ?= v0.305.0

## Tool versions, installed into bin/ with `go install`.
CONTROLLER_TOOLS_VERSION ?= v0.21.0
SETUP_ENVTEST_VERSION ?= v0.25.1
KUSTOMIZE_VERSION ?= v5.8.1
STATICCHECK_VERSION ?= v0.8.2
HELM_VERSION ?= v3.22.0
CRD_REF_DOCS_VERSION ?= v0.3.0
# The release pipeline (make release-snapshot): GoReleaser OSS v2, and cyclonedx-gomod for its SBOMs.
# v2.15.1: v2.18.2 needs Go 1.27.1 (the toolchain here is 1.26); v2.16 and v2.17 need go-msix (nfpm),
# which the module proxy here does not serve.
GORELEASER_VERSION ?= v2.15.1
CYCLONEDX_GOMOD_VERSION ?= v1.10.0
GINKGO_VERSION ?= $(shell go list -m -f '{{.Version}}' github.com/onsi/ginkgo/v2)

LOCALBIN ?= $(shell pwd)/bin
CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen
SETUP_ENVTEST ?= $(LOCALBIN)/setup-envtest
KUSTOMIZE ?= $(LOCALBIN)/kustomize
GINKGO ?= $(LOCALBIN)/ginkgo
STATICCHECK ?= $(LOCALBIN)/staticcheck
HELM ?= $(LOCALBIN)/helm
CRD_REF_DOCS ?= $(LOCALBIN)/crd-ref-docs
GORELEASER ?= $(LOCALBIN)/goreleaser
CYCLONEDX_GOMOD ?= $(LOCALBIN)/cyclonedx-gomod
# kubectl from PATH, else the one hack/local-cluster builds.
KUBECTL ?= $(shell command -v kubectl || echo $(LOCAL_CACHE)/cluster/bin-$(ENVTEST_K8S_VERSION)/kubectl)

# The one version every binary reports (internal/kit/version): the release's tag, else what git
# describes; a plain `go build` falls back to the Go build's own record.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
VERSION_LDFLAGS = -X github.com/daprbench/daprbench/internal/kit/version.Version=$(VERSION) -X github.com/daprbench/daprbench/internal/kit/version.Commit=$(COMMIT)

SHELL = /usr/bin/env bash -o pipefail
.SHELLFLAGS = -ec

.PHONY: all
all: build

##@ General

.PHONY: help
help: ## Show this help.
	@awk 'BEGIN {FS = ":.*##"; printf "\nUsage:\n  make \033[36m<target>\033[0m\n"} /^[a-zA-Z_0-9-]+:.*?##/ { printf "  \033[36m%-16s\033[0m %s\n", $$1, $$2 } /^##@/ { printf "\n\033[1m%s\033[0m\n", substr($$0, 5) } ' $(MAKEFILE_LIST)

##@ Development

.PHONY: manifests
manifests: controller-gen kustomize api-docs ## Generate the scenario-dependent admission rules from each scenario's capabilities, the CRDs and RBAC from the Go markers, the Helm chart's copies of them, the API reference and the result document's JSON Schema.
	go run ./hack/gen/scenariorules
	$(CONTROLLER_GEN) rbac:roleName=manager-role crd paths="./..." output:crd:artifacts:config=config/crd/bases
	$(KUSTOMIZE) build config/default | go run ./hack/gen/helmchart charts/daprbench
	go run ./hack/gen/resultschema

.PHONY: argocd-health
argocd-health: ## Generate config/argocd's argocd-cm patch and argo-cd Helm chart values from the health and action Lua scripts.
	go run ./hack/gen/argocd config/argocd

.PHONY: chart-docs
chart-docs: ## Generate the values table of charts/daprbench/README.md from values.yaml's comments.
	go run ./hack/gen/chartdocs charts/daprbench

.PHONY: api-docs
api-docs: crd-ref-docs ## Generate docs/reference/api.md from the API's Go types (doc comments, defaults, validation).
	$(CRD_REF_DOCS) --source-path=./api --config=hack/gen/crd-ref-docs/config.yaml --renderer=markdown --output-path=docs/reference/api.md --log-level=WARN
	@# The result document is no CRD type, so crd-ref-docs renders no section for it: its
	@# figures' "Appears in" point at the document's own description.
	sed -i 's|(#resultdocument)|(../result-schema.md)|' docs/reference/api.md

.PHONY: generate
generate: controller-gen ## Generate DeepCopy methods.
	$(CONTROLLER_GEN) object:headerFile="hack/gen/boilerplate.go.txt" paths="./..."

.PHONY: fmt
fmt: ## go fmt (the local-cluster tools module included), and gofmt for files behind build tags (go fmt skips them).
	go fmt ./...
	cd hack/local-cluster && go fmt ./...
	gofmt -l -w test/ internal/cli/report_browser_test.go

.PHONY: vet
vet: ## go vet (the e2e suite and the local-cluster tools included).
	go vet ./...
	cd hack/local-cluster && go vet ./...
	@if ls test/e2e/*.go >/dev/null 2>&1; then echo go vet -tags e2e ./test/...; go vet -tags e2e ./test/...; fi
	go vet -tags release ./test/release/
	go vet -tags browser ./internal/cli/

.PHONY: lint
lint: staticcheck ## staticcheck over every package (e2e suite and local-cluster tools included).
	$(STATICCHECK) ./...
	$(STATICCHECK) -tags e2e ./test/...
	$(STATICCHECK) -tags release ./test/release/
	$(STATICCHECK) -tags browser ./internal/cli/
	cd hack/local-cluster && $(STATICCHECK) ./...

.PHONY: verify
verify: manifests generate argocd-health chart-docs fmt ## Fail when generated code, manifests, the API reference, the Argo CD patch and values, the chart's values table, formatting or go.mod are stale.
	go mod tidy
	cd hack/local-cluster && go mod tidy
	@if [ -n "$$(git status --porcelain -- api config charts docs/reference go.mod go.sum hack '*.go')" ]; then \
	  echo "generated files, formatting or go.mod are stale; run 'make manifests generate argocd-health chart-docs fmt' and 'go mod tidy':"; \
	  git status --porcelain -- api config charts docs/reference go.mod go.sum hack '*.go'; git --no-pager diff --stat; exit 1; fi

.PHONY: prometheus
prometheus: ## Build Prometheus and promtool PROMETHEUS_VERSION from Go modules (and its image), cached.
	cd hack/local-cluster && CGO_ENABLED=0 go build -o ../../bin/mkimage ./mkimage
	MKIMAGE=$(CURDIR)/bin/mkimage hack/toolchain/build-prometheus.sh $(PROMETHEUS_VERSION) $(LOCAL_CACHE)/prometheus/$(PROMETHEUS_VERSION)

.PHONY: test-rules
test-rules: prometheus ## Test the alerting rules (config/prometheus/prometheusrule.yaml) with promtool.
	PROMTOOL=$(LOCAL_CACHE)/prometheus/$(PROMETHEUS_VERSION)/promtool go test -tags rules -count=1 ./config/prometheus/

.PHONY: test-chart
test-chart: helm kustomize ## Lint and render the Helm chart; it must install exactly what the kustomize build does.
	$(HELM) lint --strict charts/daprbench
	HELM=$(HELM) KUSTOMIZE=$(KUSTOMIZE) go test -tags chart -count=1 ./hack/gen/helmchart/

.PHONY: envtest-assets
envtest-assets: setup-envtest ## Install envtest's kube-apiserver/etcd (downloaded, or built from Go modules).
	@SETUP_ENVTEST=$(SETUP_ENVTEST) ENVTEST_K8S_VERSION=$(ENVTEST_K8S_VERSION) hack/toolchain/envtest-assets.sh >/dev/null

.PHONY: test
test: manifests generate fmt vet envtest-assets ## Unit tests plus the envtest suites against a real API server.
	KUBEBUILDER_ASSETS="$$(SETUP_ENVTEST=$(SETUP_ENVTEST) ENVTEST_K8S_VERSION=$(ENVTEST_K8S_VERSION) hack/toolchain/envtest-assets.sh)" \
	DAPR_CRDS="$$(hack/toolchain/dapr-crds.sh $(DAPR_VERSION))" \
	go test ./...
	cd hack/local-cluster && go test ./...

.PHONY: test-report-browser
test-report-browser: envtest-assets ## Open the HTML report of testdata's run and sweep in headless Chromium (Debian's, installed when missing): its DOM and a screenshot.
	@chromium="$$(hack/toolchain/chromium.sh)"; \
	assets="$$(SETUP_ENVTEST=$(SETUP_ENVTEST) ENVTEST_K8S_VERSION=$(ENVTEST_K8S_VERSION) hack/toolchain/envtest-assets.sh)"; \
	echo "CHROMIUM=$$chromium go test -tags browser -count=1 -run '^TestReportInABrowser$$' ./internal/cli/"; \
	CHROMIUM="$$chromium" KUBEBUILDER_ASSETS="$$assets" go test -tags browser -count=1 -run '^TestReportInABrowser$$' ./internal/cli/

# Go's fuzzer takes one target per run; each runs FUZZTIME (the seeds run in make test).
# Minimizing each new input is capped: a report exec is slow, and the default 60s ate the run.
FUZZTIME ?= 60s

.PHONY: fuzz
fuzz: fuzz-run-report fuzz-sweep-report ## Fuzz the plugin's status -> report path, FUZZTIME per target (no API server needed).

.PHONY: fuzz-run-report
fuzz-run-report: ## Fuzz a run's object and histograms ConfigMap into tables, summary, CSV, charts and fortio files.
	go test ./internal/cli/ -run '^$$' -fuzz '^FuzzRunReport$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s

.PHONY: fuzz-sweep-report
fuzz-sweep-report: ## Fuzz a sweep's object into its table, summary, CSV and charts.
	go test ./internal/cli/ -run '^$$' -fuzz '^FuzzSweepReport$$' -fuzztime $(FUZZTIME) -fuzzminimizetime 10s

##@ Build

.PHONY: build
build: manifests generate fmt vet ## Build the four binaries into bin/.
	for b in manager loadtester perfapp kubectl-daprbench; do CGO_ENABLED=0 go build -ldflags="$(VERSION_LDFLAGS)" -o bin/$$b ./cmd/$$b; done

.PHONY: plugin
plugin: ## Build the kubectl plugin alone into bin/kubectl-daprbench (put bin/ on PATH: kubectl daprbench ...).
	CGO_ENABLED=0 go build -ldflags="$(VERSION_LDFLAGS)" -o bin/kubectl-daprbench ./cmd/kubectl-daprbench

.PHONY: run
run: manifests generate fmt vet ## Run the manager against the cluster in ~/.kube/config.
	go run ./cmd/manager

.PHONY: docker-build
docker-build: ## Build the image with a container engine (none runs on the dev machines here).
	docker build -t $(IMG) .

##@ Release

.PHONY: mkimage release-snapshot test-release release
mkimage: ## Build mkimage, the project's image builder (go-containerregistry; no container engine), into bin/.
	cd hack/local-cluster && CGO_ENABLED=0 go build -o $(LOCALBIN)/mkimage ./mkimage

release-snapshot: goreleaser cyclonedx-gomod helm mkimage ## Rehearse the release, nothing pushed: every artifact into dist/ (GoReleaser --snapshot, the two-platform image as an OCI layout, the chart pinned to its digest), then test-release.
	GORELEASER=$(GORELEASER) CYCLONEDX_GOMOD=$(CYCLONEDX_GOMOD) HELM=$(HELM) MKIMAGE=$(LOCALBIN)/mkimage hack/release/release.sh snapshot
	$(MAKE) test-release

test-release: helm ## Check dist/ (after release-snapshot): every artifact, the krew manifest against the archives, the image's binaries, the chart's digest, the binaries' version.
	HELM=$(HELM) go test -tags release -count=1 ./test/release/

.PHONY: test-snapshot-install
test-snapshot-install: helm ## After release-snapshot, on the local cluster: helm install dist/'s chart (its image by digest), apply -k config/samples (the smoke run alone) and gate it with dist/'s plugin, check both report the snapshot's version.
	KUBECONFIG=$(LOCAL_KUBECONFIG) HELM=$(HELM) KUBECTL=$(KUBECTL) CLUSTER=$(LOCAL_CLUSTER) hack/release/install-snapshot.sh

release: goreleaser cyclonedx-gomod helm mkimage ## Publish the release of the version tag at HEAD (.github/workflows/release.yml runs it; needs GITHUB_TOKEN and registry logins).
	GORELEASER=$(GORELEASER) CYCLONEDX_GOMOD=$(CYCLONEDX_GOMOD) HELM=$(HELM) MKIMAGE=$(LOCALBIN)/mkimage hack/release/release.sh publish
	$(MAKE) test-release

##@ Deployment

.PHONY: install
install: manifests kustomize ## Install the CRDs into the cluster of ~/.kube/config.
	$(KUSTOMIZE) build config/crd | $(KUBECTL) apply --server-side -f -

.PHONY: uninstall
uninstall: manifests kustomize ## Remove the CRDs.
	$(KUSTOMIZE) build config/crd | $(KUBECTL) delete --ignore-not-found -f -

.PHONY: deploy
deploy: manifests kustomize ## Deploy the operator with image IMG.
	cd config/manager && $(KUSTOMIZE) edit set image controller=$(IMG)
	$(KUSTOMIZE) build config/default | $(KUBECTL) apply --server-side -f -
	cd config/manager && $(KUSTOMIZE) edit set image controller=daprbench:dev

.PHONY: undeploy
undeploy: kustomize ## Remove the operator.
	$(KUSTOMIZE) build config/default | $(KUBECTL) delete --ignore-not-found -f -

##@ Benchmarks

.PHONY: bench-attribution
bench-attribution: ## Where the added latency goes: the published scenario over four paths, and a feature sweep (LIMIT, SKIP; after make demo; ~25 min).
	hack/bench/attribution.sh $(or $(DURATION),30s)

.PHONY: bench-profiling-cost
bench-profiling-cost: ## What profiling daprd costs: profiled and unprofiled runs in a counterbalanced order, compared (LIMIT; after make demo; ~8 min).
	hack/bench/profiling-cost.sh $(or $(DURATION),24s) $(or $(SECONDS),20)

.PHONY: bench-compare-gate
bench-compare-gate: ## A CI-style comparison gate on the cluster: main's exported result against an unchanged rerun (exit 0) and a halved sidecar CPU limit (exit 4; LIMIT, default 500m) (after make demo; ~12 min).
	hack/bench/compare-gate.sh $(or $(DURATION),30s) $(or $(MAX_SLOWDOWN),10%)

.PHONY: bench-coverage
bench-coverage: ## How often the added-latency interval holds, per model and repetitions, this run's and covering a rerun (docs/measurement-coverage.md; ~7 min).
	go run ./hack/bench/coverage -trials 400

.PHONY: bench-calibration
bench-calibration: ## Repeatability of the node calibration: idle, under a 500m quota, beside a busy neighbour (REPEATS=5; ~1 min).
	hack/bench/calibration.sh $(or $(REPEATS),5) 2

.PHONY: bench-slow-node
bench-slow-node: ## Does the calibration travel? The perf-suite run quiet, then beside a busy neighbour (after make demo; ~12 min).
	hack/bench/slow-node.sh

.PHONY: bench-footprint
bench-footprint: envtest-assets ## The manager's footprint against envtest: idle beside 10,000 pods, then 1,000 PerfRuns at once (a few min; FOOTPRINT_ARGS=-largest: the largest the CRDs admit).
	hack/bench/footprint.sh $(FOOTPRINT_ARGS)

.PHONY: bench-latency-hook
bench-latency-hook: ## The per-request latency hook's CPU cost against fortio alone, on loopback (~1 min).
	hack/bench/latency-hook.sh

.PHONY: bench-known-answer bench-state
bench-state: ## The State scenario at Dapr's suite setting: get over HTTP and gRPC, save over HTTP, against a Redis each run deploys (operator installed; ~13 min).
	hack/bench/state.sh

.PHONY: bench-pubsub
bench-pubsub: ## The PubSub scenario at Dapr's suite setting: publish over gRPC and HTTP, delivered back, against a Redis each run deploys (operator installed; ~9 min).
	hack/bench/pubsub.sh

.PHONY: bench-workflow
bench-workflow: ## The Workflow scenario: a chain, a fan-out and the chain's known answer (activities held 2 ms), with the scheduler's and placement's CPU per 1000 workflows (operator installed; ~8 min).
	hack/bench/workflow.sh

.PHONY: bench-actor-host
bench-actor-host: ## The Go SDK's share of actor activation: the published actor scenario hosted by hand, then by Dapr's Go SDK, in the order A B B A (operator installed; ~20 min).
	hack/bench/actor-host.sh

.PHONY: bench-scheduler
bench-scheduler: ## The Scheduler scenario: one-shot jobs, then actor reminders, 100 a second due 1 s later: registration latency, trigger lateness, counts, the scheduler's CPU (operator installed; ~5 min).
	hack/bench/scheduler.sh

bench-known-answer: ## The instrument's calibration: 0, 500us and 2ms injected behind Dapr; the added p50 must rise by them (after make demo; ~21 min, DURATION=20s ~8).
	hack/bench/known-answer.sh

.PHONY: bench-rerun
bench-rerun: ## How far an unchanged rerun moves the figures: a sample (SAMPLE, default the published one) RUNS=6 times; coverage, spread, smallest slowdown (after make demo; DURATION=20s ~20 min).
	hack/bench/rerun.sh $(SAMPLE)

.PHONY: bench-pacing
bench-pacing: ## The load tester's pacer against fortio's own sleeps on loopback: the tester's lateness, latency and CPU (~3 min).
	hack/bench/pacing.sh

.PHONY: bench-loadtester
bench-loadtester: ## The load tester against the fortio CLI of the same version, on loopback (~2.5 min).
	hack/bench/loadtester.sh

.PHONY: bench-load-split
bench-load-split: ## One load from one load-tester pod, then split over several, side by side (after make demo; ~10 min).
	hack/bench/load-split.sh

.PHONY: bench-matrix
bench-matrix: ## What bounds the published scenario: arrival x sidecar CPU limit, four runs (after make demo; ~15 min).
	hack/bench/matrix.sh

.PHONY: bench-protocols
bench-protocols: ## The four invocation paths (HTTP/gRPC in and out), one run each (after make demo; ~15 min).
	hack/bench/protocols.sh

.PHONY: bench-status-writes
bench-status-writes: ## Status writes per usage-sampling interval during a run's load (after make demo; ~2 min).
	hack/bench/status-writes.sh

##@ Local cluster and end-to-end

LOCAL_CLUSTER := hack/local-cluster/cluster.sh
LOCAL_CACHE ?= $(HOME)/.cache/daprbench
LOCAL_KUBECONFIG ?= $(LOCAL_CACHE)/cluster/kubeconfig
IMAGE_ARCHIVE ?= bin/daprbench-image.tar

.PHONY: cluster-up cluster-down cluster-status image-archive cluster-image dapr-images cluster-dapr cluster-dapr-down test-e2e demo
NODES ?= 1
cluster-up: ## Start the local cluster of NODES nodes (default 1), each in its own network namespace (root; builds what is missing).
	NODES=$(NODES) $(LOCAL_CLUSTER) up

dapr-images: cluster-build ## Build Dapr DAPR_VERSION (daprd + control plane) from Go modules into image archives, cached.
	MKIMAGE=$(LOCAL_CACHE)/cluster/bin-$(ENVTEST_K8S_VERSION)/mkimage hack/toolchain/build-dapr.sh $(DAPR_VERSION) $(LOCAL_CACHE)/dapr/$(DAPR_VERSION)

cluster-dapr: cluster-up dapr-images helm ## Install Dapr DAPR_VERSION on the local cluster with Dapr's own Helm chart (builds what is missing).
	HELM=$(HELM) hack/local-cluster/dapr.sh install $(DAPR_VERSION)

.PHONY: cluster-prometheus
cluster-prometheus: cluster-up prometheus ## Install the Prometheus built from Go modules on the local cluster, scraping the manager.
	hack/local-cluster/prometheus.sh install $(PROMETHEUS_VERSION)

cluster-dapr-down: helm ## Remove Dapr from the local cluster (release, CRDs, webhook, volumes).
	HELM=$(HELM) hack/local-cluster/dapr.sh uninstall

cluster-down: ## Stop the local cluster and remove its state.
	$(LOCAL_CLUSTER) down

cluster-status: ## Show the local cluster's processes and node.
	$(LOCAL_CLUSTER) status

.PHONY: cluster-build
cluster-build: ## Build the local cluster's binaries (Kubernetes, etcd, add-ons, image tools) without starting it.
	$(LOCAL_CLUSTER) build

image-archive: ## Build the one image (manager, loadtester, perfapp, kubectl-daprbench) as an archive, without a container engine; PUSH=1 also pushes it to IMG's registry.
	@mkdir -p bin/image
	for b in manager loadtester perfapp kubectl-daprbench; do CGO_ENABLED=0 go build -trimpath -ldflags="-s -w $(VERSION_LDFLAGS)" -o bin/image/$$b ./cmd/$$b; done
	cd hack/local-cluster && CGO_ENABLED=0 go build -o ../../bin/mkimage ./mkimage
	bin/mkimage -tag $(IMG) -o $(IMAGE_ARCHIVE) $(if $(PUSH),-push) -entrypoint /manager bin/image/manager bin/image/loadtester bin/image/perfapp bin/image/kubectl-daprbench

cluster-image: image-archive ## Import the image into the local cluster's containerd.
	$(LOCAL_CLUSTER) import $(IMAGE_ARCHIVE)

# The Redis a State run deploys here: Debian's redis-server packed as an image (the operator
# is installed with redisImage=$(REDIS_IMG)).
REDIS_IMG ?= daprbench-redis:debian
.PHONY: cluster-redis
cluster-redis: cluster-up ## Pack Debian's redis-server (installed when missing) as an image and import it into the local cluster.
	MKIMAGE=$(LOCAL_CACHE)/cluster/bin-$(ENVTEST_K8S_VERSION)/mkimage hack/local-cluster/redis-image.sh $(REDIS_IMG) $(LOCAL_CACHE)/redis

# The three-node specs (label multinode) need NODES=3: test-e2e-multinode runs them.
E2E_LABELS ?= !multinode
E2E_REPORT ?= $(or $(TMPDIR),/tmp)/daprbench-e2e-report.json
test-e2e: cluster-dapr cluster-prometheus cluster-image cluster-redis helm ## End-to-end suite on the local cluster with real Dapr, the operator installed by its Helm chart (reuses the cluster when up).
	status=0; KUBECONFIG=$(LOCAL_KUBECONFIG) HELM=$(HELM) KUBECTL=$(KUBECTL) IMG=$(IMG) REDIS_IMG=$(REDIS_IMG) DAPR_VERSION=$(DAPR_VERSION) \
	go test -tags e2e ./test/e2e/ -count=1 -timeout 60m -v -ginkgo.v -ginkgo.label-filter='$(E2E_LABELS)' \
		-ginkgo.json-report=$(E2E_REPORT) || status=$$?; hack/ci/e2e-timings.py $(E2E_REPORT); exit $$status

.PHONY: test-argocd
ARGOCD_VERSION ?= v3.2.11
test-argocd: cluster-up cluster-image helm ## Argo CD (built from Go modules) syncs PerfRuns and a PerfSchedule from git on the local cluster; checks the health it reports and a rerun on a changed spec.
	KUBECONFIG=$(LOCAL_KUBECONFIG) HELM=$(HELM) KUBECTL=$(KUBECTL) IMG=$(IMG) ARGOCD_VERSION=$(ARGOCD_VERSION) hack/local-cluster/argocd-e2e.sh

.PHONY: test-e2e-multinode
test-e2e-multinode: ## The three-node e2e specs (placement across nodes, load testers spread) on a local cluster of three nodes; a cluster of another size is taken down first.
	@if [ "$$($(KUBECTL) --kubeconfig $(LOCAL_KUBECONFIG) get nodes --no-headers 2>/dev/null | wc -l)" != 3 ]; then $(MAKE) cluster-down; fi
	$(MAKE) test-e2e NODES=3 E2E_LABELS=multinode E2E_REPORT=$(basename $(E2E_REPORT))-multinode.json

demo: helm ## The main job: Dapr's published invocation scenario end to end (on the local cluster with real Dapr when no cluster is configured; refuses a context that is not local unless DEMO_CONTEXT names it).
	KUBECTL=$(KUBECTL) HELM=$(HELM) IMG=$(IMG) REDIS_IMG=$(REDIS_IMG) DAPR_VERSION=$(DAPR_VERSION) hack/local-cluster/demo.sh

.PHONY: demo-down
demo-down: helm ## Remove what make demo installed: its namespace and runs, the operator's Helm release (the CRDs stay; the local cluster: make cluster-down).
	KUBECTL=$(KUBECTL) HELM=$(HELM) hack/local-cluster/demo.sh down

##@ Tools

.PHONY: controller-gen setup-envtest kustomize ginkgo staticcheck helm crd-ref-docs goreleaser cyclonedx-gomod
controller-gen: $(CONTROLLER_GEN)
crd-ref-docs: $(CRD_REF_DOCS)
helm: $(HELM)
goreleaser: $(GORELEASER)
cyclonedx-gomod: $(CYCLONEDX_GOMOD)
staticcheck: $(STATICCHECK)
setup-envtest: $(SETUP_ENVTEST)
kustomize: $(KUSTOMIZE)
ginkgo: $(GINKGO)

$(CONTROLLER_GEN): $(LOCALBIN)/.controller-gen-$(CONTROLLER_TOOLS_VERSION)
$(SETUP_ENVTEST): $(LOCALBIN)/.setup-envtest-$(SETUP_ENVTEST_VERSION)
$(KUSTOMIZE): $(LOCALBIN)/.kustomize-$(KUSTOMIZE_VERSION)
$(GINKGO): $(LOCALBIN)/.ginkgo-$(GINKGO_VERSION)
$(STATICCHECK): $(LOCALBIN)/.staticcheck-$(STATICCHECK_VERSION)
$(HELM): $(LOCALBIN)/.helm-$(HELM_VERSION)
$(CRD_REF_DOCS): $(LOCALBIN)/.crd-ref-docs-$(CRD_REF_DOCS_VERSION)
$(GORELEASER): $(LOCALBIN)/.goreleaser-$(GORELEASER_VERSION)
$(CYCLONEDX_GOMOD): $(LOCALBIN)/.cyclonedx-gomod-$(CYCLONEDX_GOMOD_VERSION)

# A stamp per tool version, so changing a pin reinstalls the tool.
$(LOCALBIN)/.controller-gen-%:
	$(call go-install,sigs.k8s.io/controller-tools/cmd/controller-gen@$*,$@)
$(LOCALBIN)/.setup-envtest-%:
	$(call go-install,sigs.k8s.io/controller-runtime/tools/setup-envtest@$*,$@)
$(LOCALBIN)/.kustomize-%:
	$(call go-install,sigs.k8s.io/kustomize/kustomize/v5@$*,$@)
$(LOCALBIN)/.ginkgo-%:
	$(call go-install,github.com/onsi/ginkgo/v2/ginkgo@$*,$@)
$(LOCALBIN)/.staticcheck-%:
	$(call go-install,honnef.co/go/tools/cmd/staticcheck@$*,$@)
$(LOCALBIN)/.helm-%:
	$(call go-install,helm.sh/helm/v3/cmd/helm@$*,$@)
$(LOCALBIN)/.crd-ref-docs-%:
	$(call go-install,github.com/elastic/crd-ref-docs@$*,$@)
$(LOCALBIN)/.goreleaser-%:
	$(call go-install,github.com/goreleaser/goreleaser/v2@$*,$@)
$(LOCALBIN)/.cyclonedx-gomod-%:
	$(call go-install,github.com/CycloneDX/cyclonedx-gomod/cmd/cyclonedx-gomod@$*,$@)

define go-install
@mkdir -p $(LOCALBIN)
GOBIN=$(LOCALBIN) go install $(1)
@rm -f $(LOCALBIN)/.$(firstword $(subst -v, ,$(notdir $(2))))-* && touch $(2)
endef
