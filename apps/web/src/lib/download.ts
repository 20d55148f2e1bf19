import { ApiError, NETWORK_ERROR_MESSAGE, readErrorBody } from './api-client';
import { endSessionOf, getToken } from './session';

/**
 * GETs a file the server streams (a list's CSV, a member's JSON) with the session token, reporting the
 * bytes received as they arrive, and returns it whole. Errors are the API client's `ApiError`s.
 */
export async function fetchDownload(url: string, onProgress?: (bytes: number) => void): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  } catch {
    throw new ApiError({ status: 0, message: NETWORK_ERROR_MESSAGE, code: 'NETWORK_ERROR' });
  }
  if (!response.ok) {
    const error = new ApiError(await readErrorBody(response));
    if (response.status === 401) endSessionOf(token);
    throw error;
  }
  const type = response.headers.get('content-type') ?? 'application/octet-stream';
  if (!response.body) return new Blob([await response.arrayBuffer()], { type });
  const chunks: BlobPart[] = [];
  let bytes = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    bytes += value.byteLength;
    onProgress?.(bytes);
  }
  return new Blob(chunks, { type });
}

/** Hands a file to the browser's downloads under the given name. */
export function saveFile(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: the click has handed the URL to the download by then.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
