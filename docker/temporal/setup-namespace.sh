#!/bin/sh
# One-shot job (service temporal-namespace, image temporalio/admin-tools): creates the namespace the
# Cadre worker uses and Cadre's search attributes in it, once the server answers.
# Safe to rerun: what exists is left as it is.
set -eu

: "${TEMPORAL_ADDRESS:?set TEMPORAL_ADDRESS to the Temporal frontend, host:port}"
namespace="${TEMPORAL_NAMESPACE:-default}"
: "${CADRE_SEARCH_ATTRIBUTES:?set CADRE_SEARCH_ATTRIBUTES to name=Type pairs}"

attempt=1
until temporal operator cluster health --address "$TEMPORAL_ADDRESS" >/dev/null 2>&1; do
  if [ "$attempt" -ge 60 ]; then
    echo "Temporal at $TEMPORAL_ADDRESS is not healthy after $attempt attempts" >&2
    exit 1
  fi
  echo "waiting for Temporal at $TEMPORAL_ADDRESS (attempt $attempt)"
  attempt=$((attempt + 1))
  sleep 2
done

if temporal operator namespace describe --address "$TEMPORAL_ADDRESS" --namespace "$namespace" >/dev/null 2>&1; then
  echo "namespace $namespace exists"
else
  temporal operator namespace create --address "$TEMPORAL_ADDRESS" --namespace "$namespace"
  echo "namespace $namespace created"
fi

# A namespace just created reaches every frontend's cache within seconds: until then it is "not found".
attempt=1
until existing=$(temporal operator search-attribute list --address "$TEMPORAL_ADDRESS" --namespace "$namespace" 2>&1); do
  if [ "$attempt" -ge 30 ]; then
    echo "$existing" >&2
    exit 1
  fi
  attempt=$((attempt + 1))
  sleep 1
done
for attribute in $CADRE_SEARCH_ATTRIBUTES; do
  name="${attribute%%=*}"
  type="${attribute#*=}"
  if echo "$existing" | grep -qw "$name"; then
    echo "search attribute $name exists"
  else
    temporal operator search-attribute create --address "$TEMPORAL_ADDRESS" --namespace "$namespace" --name "$name" --type "$type"
    echo "search attribute $name created ($type)"
  fi
done
