export { renderHtml } from "./html";
export { renderJunit } from "./junit";
export { renderText } from "./text";
export { passHatSvg } from "./curve";
