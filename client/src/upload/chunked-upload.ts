/**
 * Uploads a file to the work API's multipart endpoint: whole when small, otherwise in chunks
 * (`chunked`, `upload_id`, `chunk_index`, `total_chunks`) joined by
 * `join_chunked_files_uploaded`. Progress is reported over the whole file.
 */
import type { RqoClient } from '../api/rqo-client.js';

export const CHUNK_BYTES = 2 * 1024 * 1024;

export interface UploadedFile {
  name: string;
  size: number;
  url?: string;
}

export async function uploadFile(
  api: RqoClient,
  file: File,
  keyDir: string,
  onProgress: (fraction: number) => void,
): Promise<UploadedFile> {
  if (file.size <= CHUNK_BYTES) {
    const form = new FormData();
    form.append('key_dir', keyDir);
    form.append('file_name', file.name);
    form.append('file_to_upload', file, file.name);
    const answer = await api.upload(form, (loaded, total) => onProgress(total ? loaded / total : 0));
    onProgress(1);
    return answer.data as UploadedFile;
  }
  const total = Math.ceil(file.size / CHUNK_BYTES);
  const uploadId = `u${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  for (let index = 0; index < total; index++) {
    const form = new FormData();
    form.append('key_dir', keyDir);
    form.append('file_name', file.name);
    form.append('chunked', 'true');
    form.append('upload_id', uploadId);
    form.append('chunk_index', String(index));
    form.append('total_chunks', String(total));
    form.append(
      'file_to_upload',
      file.slice(index * CHUNK_BYTES, (index + 1) * CHUNK_BYTES),
      `${file.name}.part${index}`,
    );
    await api.upload(form, (loaded) => onProgress((index * CHUNK_BYTES + loaded) / file.size));
  }
  const joined = await api.call<UploadedFile>({
    dd_api: 'dd_utils_api',
    action: 'join_chunked_files_uploaded',
    options: { key_dir: keyDir, file_name: file.name, upload_id: uploadId, total_chunks: total },
  });
  onProgress(1);
  return joined.data;
}
