import { DownloadIcon, LoaderCircleIcon } from 'lucide-react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { fetchDownload } from '@/lib/download';
import { handleServerError } from '@/lib/handle-server-error';
import { csvFileName, downloadCsv } from './csv';

/** 'Export CSV' of a whole list: the server streams every row of its filters and sort (`format=csv`). */
export interface ListExport {
  /** The screen's name: the file is `<name>-YYYY-MM-DD.csv`. */
  name: string;
  /** The list's URL with the table's filters, sort and search (page and size are dropped). */
  url: string;
}

/** The list URL asking for every row as CSV: the same filters and sort, no page. */
export function csvUrl(url: string): string {
  const [path, query = ''] = url.split('?');
  const params = new URLSearchParams(query);
  params.delete('page');
  params.delete('size');
  params.set('format', 'csv');
  return `${path}?${params.toString()}`;
}

const KB = 1024;
function sizeText(bytes: number): string {
  return bytes < KB * KB ? `${Math.ceil(bytes / KB)} KB` : `${(bytes / KB / KB).toFixed(1)} MB`;
}

export function ExportListButton({ name, url }: ListExport) {
  // null: idle; a number: the bytes received so far.
  const [received, setReceived] = useState<number | null>(null);
  const busy = received !== null;

  async function run() {
    setReceived(0);
    try {
      downloadCsv(csvFileName(name), await fetchDownload(csvUrl(url), setReceived));
    } catch (error) {
      handleServerError(error, { title: 'Export failed' });
    } finally {
      setReceived(null);
    }
  }

  return (
    <>
      <Button variant="outline" size="sm" onClick={run} pending={busy} aria-label="Export CSV">
        {busy ? (
          <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
        ) : (
          <DownloadIcon aria-hidden="true" />
        )}
        <span className="hidden sm:inline">{busy ? `Exporting… ${sizeText(received)}` : 'Export CSV'}</span>
      </Button>
      <span role="status" className="sr-only">
        {busy ? `Exporting ${name}, ${sizeText(received)} received` : ''}
      </span>
    </>
  );
}
