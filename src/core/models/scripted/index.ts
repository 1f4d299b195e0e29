// The scripted model server's runtime-neutral parts (docs/models.md): the script format and the handler.
export { loadScript, compileScript, scriptDocument, scriptRule, MODEL_APIS, MAX_MATCHED_CHARS, type ModelApi, type Script, type ScriptDocument, type ScriptRule, type ScriptLoad } from "./script";
export { ScriptedModel, scriptedFetch, streamChunks, MAX_HANG_MS, RECEIVED_PATH, type Received, type ScriptedRequest, type ScriptedResponse, type ScriptedStream } from "./handler";
