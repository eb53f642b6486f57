package checkout

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout/imaging"
)

// ProductImage is a product's picture: the key of its variants (a digest of their bytes, so
// that their URLs never change content) and the large variant's type and size. The zero value
// is no picture.
type ProductImage struct {
	Key           string
	Ext           string // "jpg" or "png"
	Width, Height int    // of the large variant
}

// Image sizes: the small variant (about 320 px wide) and the large one (about 640).
const (
	ImageSmall = "s"
	ImageLarge = "l"
)

// SmallSize is the small variant's width and height, as imaging makes it from the same source.
func (im ProductImage) SmallSize() (w, h int) {
	if im.Width <= imaging.SmallWidth {
		return im.Width, im.Height
	}
	return imaging.SmallWidth, max(1, (im.Height*imaging.SmallWidth+im.Width/2)/im.Width)
}

// ImageVariant is one stored variant of a product picture.
type ImageVariant struct {
	ContentType string
	Data        []byte
}

// ImageStore keeps the variants of product pictures.
type ImageStore interface {
	// SaveProductImage stores the variants of pic (nothing when its key is stored) and makes
	// it the picture of product id, in one transaction; ErrNotFound when there is no such
	// product.
	SaveProductImage(ctx context.Context, id ProductID, pic *imaging.Picture) error
	// SaveImage stores the variants of pic, once per key, belonging to no product (a session
	// item's picture).
	SaveImage(ctx context.Context, pic *imaging.Picture) error
	// ProductImageVariant returns one variant (ImageSmall or ImageLarge) by key, or ErrNotFound.
	ProductImageVariant(ctx context.Context, key, size string) (*ImageVariant, error)
}

// ErrImage* are the refusals of SetProductImage; ErrImageNotImage, ErrImageTooLarge and
// ErrImageTooHeavy are of code CodeInvalid.
var (
	ErrImageNotImage = &Error{Code: CodeInvalid, Message: "the file must be a JPEG, PNG or WebP picture"}
	ErrImageTooLarge = &Error{Code: CodeInvalid, Message: "the picture must be at most 5 MB and 40 megapixels"}
	// ErrImageTooHeavy: decoding the picture would take more memory than the limit
	// (imaging.MaxDecodeBytes); the error also wraps the *imaging.TooLargeError saying its size.
	ErrImageTooHeavy = &Error{Code: CodeInvalid, Message: "decoding the picture would take more memory than the limit"}
	// ErrImageBusy: more pictures are being decoded than the limit allows (each may take
	// up to imaging.MaxDecodeBytes); code CodeUnavailable, a 503 with Retry-After.
	ErrImageBusy = &Error{Code: CodeUnavailable, Message: "too many pictures are being processed at once; try again in a few seconds"}
)

// Picture decoding: at most pictureDecodes at once; one more waits up to pictureWait.
const (
	pictureDecodes = 2
	pictureWait    = 3 * time.Second
)

// SetProductImage makes the upload r the picture of product id: re-encoded at two widths with
// its metadata stripped (package imaging), stored in the database so that every instance
// serves it. A file that is not a JPEG, PNG or WebP picture is ErrImageNotImage; one too large,
// ErrImageTooLarge; one whose decoding would take too much memory, ErrImageTooHeavy.
func (c *Catalogue) SetProductImage(ctx context.Context, id ProductID, r io.Reader) (*Product, error) {
	pic, err := c.pictures.Process(ctx, r)
	if err != nil {
		return nil, pictureError(err)
	}
	if err := c.store.SaveProductImage(ctx, id, pic); err != nil {
		return nil, fmt.Errorf("checkout: storing the picture of product %s: %w", id, err)
	}
	return c.store.Product(ctx, id)
}

// ProcessLogo makes the upload r the store's logo pictures (imaging.ProcessLogo), decoded within
// the same limit as product pictures and refused as they are (ErrImageNotImage,
// ErrImageTooLarge, ErrImageTooHeavy, ErrImageBusy). Package brand stores them.
func (c *Catalogue) ProcessLogo(ctx context.Context, r io.Reader) (*imaging.Logo, error) {
	l, err := c.pictures.ProcessLogo(ctx, r)
	if err != nil {
		return nil, pictureError(err)
	}
	return l, nil
}

// pictureError is the refusal of an upload that package imaging refused with err.
func pictureError(err error) error {
	var heavy *imaging.TooLargeError
	switch {
	case errors.Is(err, imaging.ErrBusy):
		return ErrImageBusy
	case errors.As(err, &heavy):
		return fmt.Errorf("%w: %w", ErrImageTooHeavy, heavy)
	case errors.Is(err, imaging.ErrNotImage):
		return ErrImageNotImage
	case errors.Is(err, imaging.ErrTooLarge):
		return ErrImageTooLarge
	}
	return fmt.Errorf("checkout: processing a picture: %w", err)
}

// ProductImageVariant returns a stored picture variant, or ErrNotFound.
func (c *Catalogue) ProductImageVariant(ctx context.Context, key, size string) (*ImageVariant, error) {
	if size != ImageSmall && size != ImageLarge {
		return nil, ErrNotFound
	}
	return c.store.ProductImageVariant(ctx, key, size)
}

// Path is the URL path of one variant (ImageSmall or ImageLarge) of the picture.
func (im ProductImage) Path(size string) string {
	return "/images/" + im.Key + "-" + size + "." + im.Ext
}

// MaxImageURLLength bounds a session item's imageUrl.
const MaxImageURLLength = 2048

// sessionImage fetches the picture a session's ad-hoc item names, once, and stores it like a
// product's: pages then serve it themselves, so the Content-Security-Policy stays img-src
// 'self', shoppers' browsers never call the merchant's image host (nor anyone it redirects
// to), the picture cannot change or vanish under an order, and it is sized and stripped like
// every other. The error says why the URL was refused, for the API's answer.
func (c *Catalogue) sessionImage(ctx context.Context, raw string) (ProductImage, error) {
	if err := checkImageURL(raw); err != nil {
		return ProductImage{}, err
	}
	if c.fetchImage == nil {
		return ProductImage{}, errors.New("pictures from a URL are not accepted by this checkout")
	}
	body, err := c.fetchImage(ctx, raw)
	if err != nil {
		return ProductImage{}, fmt.Errorf("could not be fetched: %v", err)
	}
	defer body.Close()
	pic, err := c.pictures.Process(ctx, body)
	var heavy *imaging.TooLargeError
	switch {
	case errors.Is(err, imaging.ErrBusy):
		return ProductImage{}, errors.New(ErrImageBusy.Message)
	case errors.As(err, &heavy):
		return ProductImage{}, errors.New(strings.TrimPrefix(heavy.Error(), "imaging: "))
	case errors.Is(err, imaging.ErrNotImage):
		return ProductImage{}, errors.New("must be a JPEG, PNG or WebP picture")
	case errors.Is(err, imaging.ErrTooLarge):
		return ProductImage{}, errors.New("the picture must be at most 5 MB and 40 megapixels")
	case err != nil:
		return ProductImage{}, fmt.Errorf("could not be read: %v", err)
	}
	if err := c.store.SaveImage(ctx, pic); err != nil {
		return ProductImage{}, fmt.Errorf("could not be stored: %v", err)
	}
	l := pic.Variants[1]
	return ProductImage{Key: pic.Key, Ext: l.Ext(), Width: l.Width, Height: l.Height}, nil
}

// checkImageURL accepts an absolute https URL without user information, on a host name, within
// MaxImageURLLength; where the name leads is the fetcher's guard's to check.
func checkImageURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case len(raw) > MaxImageURLLength:
		return fmt.Errorf("must be at most %d characters", MaxImageURLLength)
	case err != nil || u.Host == "" || u.Opaque != "":
		return errors.New("must be an absolute https:// URL")
	case !strings.EqualFold(u.Scheme, "https"):
		return errors.New("must use https")
	case u.User != nil:
		return errors.New("must not contain user information")
	}
	if _, err := netip.ParseAddr(strings.Trim(u.Hostname(), "[]")); err == nil {
		return errors.New("must have a host name, not an IP address")
	}
	return nil
}
