/**
 * The models an OpenAI-compatible server offers (GET {baseURL}/models: Ollama, LM Studio, vLLM…),
 * for the chat's model picker. One quick request without credentials; any failure is "none known".
 */
export async function listCompatibleModels(baseURL: string, timeoutMs = 800): Promise<string[]> {
  try {
    const response = await fetch(`${baseURL.replace(/\/+$/, '')}/models`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return [];
    const body = (await response.json()) as { data?: unknown };
    if (!Array.isArray(body.data)) return [];
    const ids = body.data
      .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string' && id.length > 0 && id.length <= 200);
    return [...new Set(ids)].slice(0, 100);
  } catch {
    return [];
  }
}
