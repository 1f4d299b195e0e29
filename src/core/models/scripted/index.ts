// The scripted model server's runtime-neutral parts (docs/models.md): the script format and the handler.
export { loadScript, compileScript, scriptDocument, scriptRule, type Script, type ScriptDocument, type ScriptRule, type ScriptLoad } from "./script";
export { ScriptedModel, scriptedFetch, RECEIVED_PATH, type Received, type ScriptedRequest, type ScriptedResponse } from "./handler";
