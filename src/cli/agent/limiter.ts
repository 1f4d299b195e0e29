// The limiter moved to core (the model client bounds its calls with it too); kept here for existing importers.
export { createLimiter, type Limiter } from "../../core/util/limiter";
