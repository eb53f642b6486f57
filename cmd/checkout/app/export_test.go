package app

// QRImages reports how many QR images the app's shared drawer drew, and how many it gave again
// (the checkout and its embedded sandbox asking for the same code).
func (a *App) QRImages() (drawn, reused uint64) { return a.qrImages.Stats() }
