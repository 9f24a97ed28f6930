/** Minutes as people say them: "45 min", "2 h", "1 d 4 h". */
export function minutesText(total: number): string {
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts = [days ? `${days} d` : "", hours ? `${hours} h` : "", minutes ? `${minutes} min` : ""].filter(Boolean);
  return parts.length ? parts.join(" ") : "0 min";
}
