#!/usr/bin/env bash
# Checks deploy/kubernetes without a cluster: renders it with `kubectl kustomize`, then
# kubernetes-check.mjs checks every object against the Kubernetes API's schemas (kubernetes-models,
# installed into a temporary directory) and against Muster itself (probe paths, CLI commands).
# Usage: deploy/test/kubernetes.test.sh   (needs kubectl and the npm registry)
set -euo pipefail
cd "$(dirname "$0")/../.."
tools=$(mktemp -d)
trap 'rm -rf "$tools"' EXIT
npm install --silent --no-audit --no-fund --prefix "$tools" kubernetes-models@5.1.0 >/dev/null
kubectl kustomize deploy/kubernetes >"$tools/rendered.yaml"
node deploy/test/kubernetes-check.mjs "$tools/rendered.yaml" "$tools/node_modules/kubernetes-models"
