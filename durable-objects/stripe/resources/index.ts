// Every billing resource the twin serves. The HTTP layer builds its router, seeding and expansion from this list.
import type { Resource } from "../types";

export const RESOURCES: Resource[] = [];
