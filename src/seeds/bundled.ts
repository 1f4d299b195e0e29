// Seeds bundled into the Worker (and read by the CLI from the same files). Add a seed here to serve it by name.
import acmeSmall from "../../seeds/acme-small.json";
import acmeProdLibrary from "../../seeds/acme-prod-library.json";

export const BUNDLED_SEEDS: Record<string, unknown> = {
  "acme-small": acmeSmall,
  "acme-prod-library": acmeProdLibrary,
};
