// A task's label: its own id when it has one, else its 1-based position in the file. Problems and reports use it.
export function taskLabel(raw: unknown, index: number): string {
  if (raw && typeof raw === "object" && !Array.isArray(raw)) {
    const id = (raw as Record<string, unknown>).id;
    if ((typeof id === "string" && id.trim() !== "" && !/[\r\n]/.test(id)) || (typeof id === "number" && Number.isInteger(id))) return String(id).trim();
  }
  return String(index + 1);
}

export function rawTasks(data: unknown): unknown[] {
  if (data && typeof data === "object" && !Array.isArray(data)) {
    const tasks = (data as Record<string, unknown>).tasks;
    if (Array.isArray(tasks)) return tasks;
  }
  return [];
}
