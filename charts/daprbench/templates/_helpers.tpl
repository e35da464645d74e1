{{/*
The manager's image (also the runs' load tester and target app): by digest when one is given,
else at image.tag, else at the chart's appVersion (a released chart's is its release's).
*/}}
{{- define "daprbench.image" -}}
{{- if .Values.image.digest -}}
{{ .Values.image.repository }}@{{ .Values.image.digest }}
{{- else -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}
{{- end -}}

{{/* The app.kubernetes.io/name label: the chart's name, or nameOverride. */}}
{{- define "daprbench.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The prefix of every object's name: fullnameOverride, else the name. Unlike the `helm create`
helper it does not prepend the release's name: the operator is one per cluster (its CRDs and
ClusterRoles are cluster-wide), and names that do not follow the release's name keep an
upgrade from 0.1.0 (daprbench-controller-manager, daprbench-manager-role, …) from renaming,
and so replacing, every object whatever the release was called.
*/}}
{{- define "daprbench.fullname" -}}
{{- default (include "daprbench.name" .) .Values.fullnameOverride | trunc 36 | trimSuffix "-" -}}
{{- end -}}

{{/* helm.sh/chart: name-version, "+" (SemVer build metadata) is not allowed in a label. */}}
{{- define "daprbench.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/*
The standard labels of every object the chart makes; each template adds its own
app.kubernetes.io/component. The Deployment's selector is daprbench.selectorLabels only:
a selector is immutable, so it never takes a label that changes between releases.
*/}}
{{- define "daprbench.labels" -}}
helm.sh/chart: {{ include "daprbench.chart" . }}
app.kubernetes.io/name: {{ include "daprbench.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | default .Chart.Version | replace "+" "_" | trunc 63 | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* The manager's selector (as in 0.1.0 and the kustomize install): never add to it. */}}
{{- define "daprbench.selectorLabels" -}}
app.kubernetes.io/component: manager
app.kubernetes.io/name: {{ include "daprbench.name" . }}
{{- end -}}

{{/* The manager's ServiceAccount: serviceAccount.name, else <fullname>-controller-manager. */}}
{{- define "daprbench.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (printf "%s-controller-manager" (include "daprbench.fullname" .)) .Values.serviceAccount.name -}}
{{- else -}}
{{- required "serviceAccount.name: the ServiceAccount to run the manager as (serviceAccount.create=false makes none)" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{/*
Monitoring switches: each object's own value, or monitoring.kubePrometheusStack.release, which
turns on all of them for that stack. "true" or empty.
*/}}
{{- define "daprbench.serviceMonitor.enabled" -}}
{{- if or .Values.serviceMonitor.enabled .Values.monitoring.kubePrometheusStack.release }}true{{ end -}}
{{- end -}}
{{- define "daprbench.prometheusRule.enabled" -}}
{{- if or .Values.prometheusRule.enabled .Values.monitoring.kubePrometheusStack.release }}true{{ end -}}
{{- end -}}
{{- define "daprbench.grafanaDashboard.enabled" -}}
{{- if or .Values.grafanaDashboard.enabled .Values.monitoring.kubePrometheusStack.release }}true{{ end -}}
{{- end -}}

{{/*
The extra labels of the ServiceMonitor or the PrometheusRule (dict "labels" <its labels value>
"root" $): release: <monitoring.kubePrometheusStack.release>, which that stack's Prometheus
selects by, and the object's own labels, which win.
*/}}
{{- define "daprbench.monitoringLabels" -}}
{{- $labels := dict }}
{{- with .root.Values.monitoring.kubePrometheusStack.release }}{{ $_ := set $labels "release" . }}{{ end }}
{{- $labels = merge (deepCopy (.labels | default dict)) $labels }}
{{- with $labels }}{{ toYaml . }}{{ end }}
{{- end -}}
