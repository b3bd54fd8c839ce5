#!/usr/bin/env python3
"""deploy/kubernetes, checked offline: kubernetes-validate (its schemas ship in the package, no cluster or
network needed) and the shape this project relies on: a Deployment probing /readyz and /healthz, the store's
URL and the APNs key from a Secret (as files named by PUSHBUTTON_..._FILE), a Service and a
PodDisruptionBudget selecting the Deployment's pods."""
import glob
import subprocess
import sys

import yaml

directory = sys.argv[1] if len(sys.argv) > 1 else "deploy/kubernetes"
files = sorted(glob.glob(f"{directory}/*.yaml"))
result = subprocess.run(
    [sys.executable, "-m", "kubernetes_validate", "--strict", "-k", "1.30.0", *files],
    capture_output=True, text=True)
print(result.stdout.strip() + result.stderr.strip())
if result.returncode != 0:
    sys.exit("check-kubernetes: kubernetes-validate failed")

documents = [d for f in files for d in yaml.safe_load_all(open(f)) if d]
kinds = {d["kind"]: d for d in documents}
problems = []
for kind in ["Deployment", "Secret", "Service", "PodDisruptionBudget"]:
    if kind not in kinds:
        problems.append(f"no {kind}")
if not problems:
    deployment = kinds["Deployment"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    if container["readinessProbe"]["httpGet"]["path"] != "/readyz":
        problems.append("the readiness probe is not /readyz")
    if container["livenessProbe"]["httpGet"]["path"] != "/healthz":
        problems.append("the liveness probe is not /healthz")
    env = {e["name"]: e.get("value") for e in container["env"]}
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    volumes = {v["name"]: v for v in deployment["spec"]["template"]["spec"]["volumes"]}
    secret_mounts = [mounts[n] for n, v in volumes.items() if v.get("secret", {}).get("secretName") == kinds["Secret"]["metadata"]["name"]]
    for variable in ["PUSHBUTTON_STORE_FILE", "PUSHBUTTON_APP_KEY_FILE"]:
        if not any((env.get(variable) or "").startswith(m + "/") for m in secret_mounts):
            problems.append(f"{variable} does not name a file of the Secret")
    if "PUSHBUTTON_STORE" in env:
        problems.append("the store URL is in the environment itself, not in the Secret")
    if not deployment["spec"]["template"]["spec"].get("securityContext", {}).get("runAsNonRoot"):
        problems.append("the pods may run as root")
    for kind in ["Service", "PodDisruptionBudget"]:
        selector = kinds[kind]["spec"]["selector"]
        selector = selector.get("matchLabels", selector)
        if any(labels.get(k) != v for k, v in selector.items()):
            problems.append(f"the {kind} does not select the Deployment's pods")
for problem in problems:
    print(f"check-kubernetes: {problem}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"check-kubernetes: {len(documents)} manifests valid; probes, Secret files, selectors as expected")
