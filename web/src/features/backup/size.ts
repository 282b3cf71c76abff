/** A backup's size as people read it: KB, MB or GB (binary units, one or two decimals). */
export const fileSize = (bytes: number) =>
  bytes >= 2 ** 30 ? `${(bytes / 2 ** 30).toFixed(2)} GB` : bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
