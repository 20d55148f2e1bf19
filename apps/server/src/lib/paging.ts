import type { Paged } from '@loyalty/contracts';

export function toPage<T>(content: T[], totalElements: number, page: number, size: number): Paged<T> {
  return { content, totalElements, totalPages: Math.ceil(totalElements / size), page, size };
}

/** Escapes LIKE wildcards so a search for "50%" matches the text "50%", not everything. */
export function likeContains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function toIso(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}
