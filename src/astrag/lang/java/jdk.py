"""The JDK's class hierarchy as the Java room knows it: what each public class of the common
``java.base`` packages directly extends and implements (``scripts/JdkSupertypes.java`` prints
it from a JDK 17; nothing is read at run time). It lets overload resolution tell that a
``ByteArrayInputStream`` argument fits an ``InputStream`` parameter and not a ``Reader`` one.
"""

from __future__ import annotations

from functools import cache

PACKAGES = (
    "java.lang",
    "java.io",
    "java.nio",
    "java.nio.file",
    "java.nio.file.attribute",
    "java.nio.charset",
    "java.nio.channels",
    "java.util",
    "java.util.function",
    "java.util.concurrent",
    "java.util.concurrent.atomic",
    "java.util.concurrent.locks",
    "java.util.stream",
    "java.util.regex",
    "java.time",
    "java.time.chrono",
    "java.time.temporal",
    "java.time.format",
    "java.net",
    "java.math",
    "java.lang.reflect",
    "java.lang.ref",
    "java.text",
    "java.security",
)


@cache
def package_classes(package: str) -> frozenset[str]:
    """The simple names of ``package``'s public top-level classes in the table (``java.lang``'s
    are what every Java file may name without an import)."""
    out = set()
    for line in _TABLE.splitlines():
        name = line.split(maxsplit=1)[0]
        owner, _, simple = name.rpartition(".")
        if owner == package:
            out.add(simple)
    return frozenset(out)


@cache
def supertypes() -> dict[str, frozenset[str]]:
    """Every listed class -> all its supertypes (itself and ``java.lang.Object`` included)."""
    direct = {}
    for line in _TABLE.splitlines():  # (a long line goes on after a backslash)
        name, *supers = line.split()
        direct[name] = supers
    closed: dict[str, frozenset[str]] = {}

    def close(name: str, seen: frozenset[str]) -> frozenset[str]:
        found = closed.get(name)
        if found is not None:
            return found
        out = {name, "java.lang.Object"}
        for parent in direct.get(name, ()):
            if parent not in seen:
                out |= close(parent, seen | {name})
        closed[name] = frozenset(out)
        return closed[name]

    for name in direct:
        close(name, frozenset())
    return closed


_TABLE = """\
java.io.BufferedInputStream java.io.FilterInputStream
java.io.BufferedOutputStream java.io.FilterOutputStream
java.io.BufferedReader java.io.Reader
java.io.BufferedWriter java.io.Writer
java.io.ByteArrayInputStream java.io.InputStream
java.io.ByteArrayOutputStream java.io.OutputStream
java.io.CharArrayReader java.io.Reader
java.io.CharArrayWriter java.io.Writer
java.io.CharConversionException java.io.IOException
java.io.Closeable java.lang.AutoCloseable
java.io.Console java.io.Flushable
java.io.DataInput
java.io.DataInputStream java.io.FilterInputStream java.io.DataInput
java.io.DataOutput
java.io.DataOutputStream java.io.FilterOutputStream java.io.DataOutput
java.io.EOFException java.io.IOException
java.io.Externalizable java.io.Serializable
java.io.File java.io.Serializable java.lang.Comparable
java.io.FileDescriptor
java.io.FileFilter
java.io.FileInputStream java.io.InputStream
java.io.FileNotFoundException java.io.IOException
java.io.FileOutputStream java.io.OutputStream
java.io.FilePermission java.security.Permission java.io.Serializable
java.io.FileReader java.io.InputStreamReader
java.io.FileWriter java.io.OutputStreamWriter
java.io.FilenameFilter
java.io.FilterInputStream java.io.InputStream
java.io.FilterOutputStream java.io.OutputStream
java.io.FilterReader java.io.Reader
java.io.FilterWriter java.io.Writer
java.io.Flushable
java.io.IOError java.lang.Error
java.io.IOException java.lang.Exception
java.io.InputStream java.io.Closeable
java.io.InputStreamReader java.io.Reader
java.io.InterruptedIOException java.io.IOException
java.io.InvalidClassException java.io.ObjectStreamException
java.io.InvalidObjectException java.io.ObjectStreamException
java.io.LineNumberInputStream java.io.FilterInputStream
java.io.LineNumberReader java.io.BufferedReader
java.io.NotActiveException java.io.ObjectStreamException
java.io.NotSerializableException java.io.ObjectStreamException
java.io.ObjectInput java.io.DataInput java.lang.AutoCloseable
java.io.ObjectInputFilter
java.io.ObjectInputFilter.Config
java.io.ObjectInputFilter.FilterInfo
java.io.ObjectInputFilter.Status java.lang.Enum
java.io.ObjectInputStream java.io.InputStream java.io.ObjectInput java.io.ObjectStreamConstants
java.io.ObjectInputStream.GetField
java.io.ObjectInputValidation
java.io.ObjectOutput java.io.DataOutput java.lang.AutoCloseable
java.io.ObjectOutputStream java.io.OutputStream java.io.ObjectOutput java.io.ObjectStreamConstants
java.io.ObjectOutputStream.PutField
java.io.ObjectStreamClass java.io.Serializable
java.io.ObjectStreamConstants
java.io.ObjectStreamException java.io.IOException
java.io.ObjectStreamField java.lang.Comparable
java.io.OptionalDataException java.io.ObjectStreamException
java.io.OutputStream java.io.Closeable java.io.Flushable
java.io.OutputStreamWriter java.io.Writer
java.io.PipedInputStream java.io.InputStream
java.io.PipedOutputStream java.io.OutputStream
java.io.PipedReader java.io.Reader
java.io.PipedWriter java.io.Writer
java.io.PrintStream java.io.FilterOutputStream java.lang.Appendable java.io.Closeable
java.io.PrintWriter java.io.Writer
java.io.PushbackInputStream java.io.FilterInputStream
java.io.PushbackReader java.io.FilterReader
java.io.RandomAccessFile java.io.DataOutput java.io.DataInput java.io.Closeable
java.io.Reader java.lang.Readable java.io.Closeable
java.io.SequenceInputStream java.io.InputStream
java.io.Serial java.lang.annotation.Annotation
java.io.Serializable
java.io.SerializablePermission java.security.BasicPermission
java.io.StreamCorruptedException java.io.ObjectStreamException
java.io.StreamTokenizer
java.io.StringBufferInputStream java.io.InputStream
java.io.StringReader java.io.Reader
java.io.StringWriter java.io.Writer
java.io.SyncFailedException java.io.IOException
java.io.UTFDataFormatException java.io.IOException
java.io.UncheckedIOException java.lang.RuntimeException
java.io.UnsupportedEncodingException java.io.IOException
java.io.WriteAbortedException java.io.ObjectStreamException
java.io.Writer java.lang.Appendable java.io.Closeable java.io.Flushable
java.lang.AbstractMethodError java.lang.IncompatibleClassChangeError
java.lang.Appendable
java.lang.ArithmeticException java.lang.RuntimeException
java.lang.ArrayIndexOutOfBoundsException java.lang.IndexOutOfBoundsException
java.lang.ArrayStoreException java.lang.RuntimeException
java.lang.AssertionError java.lang.Error
java.lang.AutoCloseable
java.lang.Boolean java.io.Serializable java.lang.Comparable java.lang.constant.Constable
java.lang.BootstrapMethodError java.lang.LinkageError
java.lang.Byte java.lang.Number java.lang.Comparable java.lang.constant.Constable
java.lang.CharSequence
java.lang.Character java.io.Serializable java.lang.Comparable java.lang.constant.Constable
java.lang.Character.Subset
java.lang.Character.UnicodeBlock java.lang.Character.Subset
java.lang.Character.UnicodeScript java.lang.Enum
java.lang.Class java.io.Serializable java.lang.reflect.GenericDeclaration \
    java.lang.reflect.Type java.lang.reflect.AnnotatedElement \
    java.lang.invoke.TypeDescriptor.OfField java.lang.constant.Constable
java.lang.ClassCastException java.lang.RuntimeException
java.lang.ClassCircularityError java.lang.LinkageError
java.lang.ClassFormatError java.lang.LinkageError
java.lang.ClassLoader
java.lang.ClassNotFoundException java.lang.ReflectiveOperationException
java.lang.ClassValue
java.lang.CloneNotSupportedException java.lang.Exception
java.lang.Cloneable
java.lang.Comparable
java.lang.Compiler
java.lang.Deprecated java.lang.annotation.Annotation
java.lang.Double java.lang.Number java.lang.Comparable java.lang.constant.Constable \
    java.lang.constant.ConstantDesc
java.lang.Enum java.lang.constant.Constable java.lang.Comparable java.io.Serializable
java.lang.Enum.EnumDesc java.lang.constant.DynamicConstantDesc
java.lang.EnumConstantNotPresentException java.lang.RuntimeException
java.lang.Error java.lang.Throwable
java.lang.Exception java.lang.Throwable
java.lang.ExceptionInInitializerError java.lang.LinkageError
java.lang.Float java.lang.Number java.lang.Comparable java.lang.constant.Constable \
    java.lang.constant.ConstantDesc
java.lang.FunctionalInterface java.lang.annotation.Annotation
java.lang.IllegalAccessError java.lang.IncompatibleClassChangeError
java.lang.IllegalAccessException java.lang.ReflectiveOperationException
java.lang.IllegalArgumentException java.lang.RuntimeException
java.lang.IllegalCallerException java.lang.RuntimeException
java.lang.IllegalMonitorStateException java.lang.RuntimeException
java.lang.IllegalStateException java.lang.RuntimeException
java.lang.IllegalThreadStateException java.lang.IllegalArgumentException
java.lang.IncompatibleClassChangeError java.lang.LinkageError
java.lang.IndexOutOfBoundsException java.lang.RuntimeException
java.lang.InheritableThreadLocal java.lang.ThreadLocal
java.lang.InstantiationError java.lang.IncompatibleClassChangeError
java.lang.InstantiationException java.lang.ReflectiveOperationException
java.lang.Integer java.lang.Number java.lang.Comparable java.lang.constant.Constable \
    java.lang.constant.ConstantDesc
java.lang.InternalError java.lang.VirtualMachineError
java.lang.InterruptedException java.lang.Exception
java.lang.Iterable
java.lang.LayerInstantiationException java.lang.RuntimeException
java.lang.LinkageError java.lang.Error
java.lang.Long java.lang.Number java.lang.Comparable java.lang.constant.Constable \
    java.lang.constant.ConstantDesc
java.lang.Math
java.lang.Module java.lang.reflect.AnnotatedElement
java.lang.ModuleLayer
java.lang.ModuleLayer.Controller
java.lang.NegativeArraySizeException java.lang.RuntimeException
java.lang.NoClassDefFoundError java.lang.LinkageError
java.lang.NoSuchFieldError java.lang.IncompatibleClassChangeError
java.lang.NoSuchFieldException java.lang.ReflectiveOperationException
java.lang.NoSuchMethodError java.lang.IncompatibleClassChangeError
java.lang.NoSuchMethodException java.lang.ReflectiveOperationException
java.lang.NullPointerException java.lang.RuntimeException
java.lang.Number java.io.Serializable
java.lang.NumberFormatException java.lang.IllegalArgumentException
java.lang.Object
java.lang.OutOfMemoryError java.lang.VirtualMachineError
java.lang.Override java.lang.annotation.Annotation
java.lang.Package java.lang.NamedPackage java.lang.reflect.AnnotatedElement
java.lang.Process
java.lang.ProcessBuilder
java.lang.ProcessBuilder.Redirect
java.lang.ProcessBuilder.Redirect.Type java.lang.Enum
java.lang.ProcessHandle java.lang.Comparable
java.lang.ProcessHandle.Info
java.lang.Readable
java.lang.Record
java.lang.ReflectiveOperationException java.lang.Exception
java.lang.Runnable
java.lang.Runtime
java.lang.Runtime.Version java.lang.Comparable
java.lang.RuntimeException java.lang.Exception
java.lang.RuntimePermission java.security.BasicPermission
java.lang.SafeVarargs java.lang.annotation.Annotation
java.lang.SecurityException java.lang.RuntimeException
java.lang.SecurityManager
java.lang.Short java.lang.Number java.lang.Comparable java.lang.constant.Constable
java.lang.StackOverflowError java.lang.VirtualMachineError
java.lang.StackTraceElement java.io.Serializable
java.lang.StackWalker
java.lang.StackWalker.Option java.lang.Enum
java.lang.StackWalker.StackFrame
java.lang.StrictMath
java.lang.String java.io.Serializable java.lang.Comparable java.lang.CharSequence \
    java.lang.constant.Constable java.lang.constant.ConstantDesc
java.lang.StringBuffer java.lang.AbstractStringBuilder java.io.Serializable \
    java.lang.Comparable java.lang.CharSequence
java.lang.StringBuilder java.lang.AbstractStringBuilder java.io.Serializable \
    java.lang.Comparable java.lang.CharSequence
java.lang.StringIndexOutOfBoundsException java.lang.IndexOutOfBoundsException
java.lang.SuppressWarnings java.lang.annotation.Annotation
java.lang.System
java.lang.System.Logger
java.lang.System.Logger.Level java.lang.Enum
java.lang.System.LoggerFinder
java.lang.Thread java.lang.Runnable
java.lang.Thread.State java.lang.Enum
java.lang.Thread.UncaughtExceptionHandler
java.lang.ThreadDeath java.lang.Error
java.lang.ThreadGroup java.lang.Thread.UncaughtExceptionHandler
java.lang.ThreadLocal
java.lang.Throwable java.io.Serializable
java.lang.TypeNotPresentException java.lang.RuntimeException
java.lang.UnknownError java.lang.VirtualMachineError
java.lang.UnsatisfiedLinkError java.lang.LinkageError
java.lang.UnsupportedClassVersionError java.lang.ClassFormatError
java.lang.UnsupportedOperationException java.lang.RuntimeException
java.lang.VerifyError java.lang.LinkageError
java.lang.VirtualMachineError java.lang.Error
java.lang.Void
java.lang.ref.Cleaner
java.lang.ref.Cleaner.Cleanable
java.lang.ref.PhantomReference java.lang.ref.Reference
java.lang.ref.Reference
java.lang.ref.ReferenceQueue
java.lang.ref.SoftReference java.lang.ref.Reference
java.lang.ref.WeakReference java.lang.ref.Reference
java.lang.reflect.AccessibleObject java.lang.reflect.AnnotatedElement
java.lang.reflect.AnnotatedArrayType java.lang.reflect.AnnotatedType
java.lang.reflect.AnnotatedElement
java.lang.reflect.AnnotatedParameterizedType java.lang.reflect.AnnotatedType
java.lang.reflect.AnnotatedType java.lang.reflect.AnnotatedElement
java.lang.reflect.AnnotatedTypeVariable java.lang.reflect.AnnotatedType
java.lang.reflect.AnnotatedWildcardType java.lang.reflect.AnnotatedType
java.lang.reflect.Array
java.lang.reflect.Constructor java.lang.reflect.Executable
java.lang.reflect.Executable java.lang.reflect.AccessibleObject java.lang.reflect.Member \
    java.lang.reflect.GenericDeclaration
java.lang.reflect.Field java.lang.reflect.AccessibleObject java.lang.reflect.Member
java.lang.reflect.GenericArrayType java.lang.reflect.Type
java.lang.reflect.GenericDeclaration java.lang.reflect.AnnotatedElement
java.lang.reflect.GenericSignatureFormatError java.lang.ClassFormatError
java.lang.reflect.InaccessibleObjectException java.lang.RuntimeException
java.lang.reflect.InvocationHandler
java.lang.reflect.InvocationTargetException java.lang.ReflectiveOperationException
java.lang.reflect.MalformedParameterizedTypeException java.lang.RuntimeException
java.lang.reflect.MalformedParametersException java.lang.RuntimeException
java.lang.reflect.Member
java.lang.reflect.Method java.lang.reflect.Executable
java.lang.reflect.Modifier
java.lang.reflect.Parameter java.lang.reflect.AnnotatedElement
java.lang.reflect.ParameterizedType java.lang.reflect.Type
java.lang.reflect.Proxy java.io.Serializable
java.lang.reflect.RecordComponent java.lang.reflect.AnnotatedElement
java.lang.reflect.ReflectPermission java.security.BasicPermission
java.lang.reflect.Type
java.lang.reflect.TypeVariable java.lang.reflect.Type java.lang.reflect.AnnotatedElement
java.lang.reflect.UndeclaredThrowableException java.lang.RuntimeException
java.lang.reflect.WildcardType java.lang.reflect.Type
java.math.BigDecimal java.lang.Number java.lang.Comparable
java.math.BigInteger java.lang.Number java.lang.Comparable
java.math.MathContext java.io.Serializable
java.math.RoundingMode java.lang.Enum
java.net.Authenticator
java.net.Authenticator.RequestorType java.lang.Enum
java.net.BindException java.net.SocketException
java.net.CacheRequest
java.net.CacheResponse
java.net.ConnectException java.net.SocketException
java.net.ContentHandler
java.net.ContentHandlerFactory
java.net.CookieHandler
java.net.CookieManager java.net.CookieHandler
java.net.CookiePolicy
java.net.CookieStore
java.net.DatagramPacket
java.net.DatagramSocket java.io.Closeable
java.net.DatagramSocketImpl java.net.SocketOptions
java.net.DatagramSocketImplFactory
java.net.FileNameMap
java.net.HttpCookie java.lang.Cloneable
java.net.HttpRetryException java.io.IOException
java.net.HttpURLConnection java.net.URLConnection
java.net.IDN
java.net.Inet4Address java.net.InetAddress
java.net.Inet6Address java.net.InetAddress
java.net.InetAddress java.io.Serializable
java.net.InetSocketAddress java.net.SocketAddress
java.net.InterfaceAddress
java.net.JarURLConnection java.net.URLConnection
java.net.MalformedURLException java.io.IOException
java.net.MulticastSocket java.net.DatagramSocket
java.net.NetPermission java.security.BasicPermission
java.net.NetworkInterface
java.net.NoRouteToHostException java.net.SocketException
java.net.PasswordAuthentication
java.net.PortUnreachableException java.net.SocketException
java.net.ProtocolException java.io.IOException
java.net.ProtocolFamily
java.net.Proxy
java.net.Proxy.Type java.lang.Enum
java.net.ProxySelector
java.net.ResponseCache
java.net.SecureCacheResponse java.net.CacheResponse
java.net.ServerSocket java.io.Closeable
java.net.Socket java.io.Closeable
java.net.SocketAddress java.io.Serializable
java.net.SocketException java.io.IOException
java.net.SocketImpl java.net.SocketOptions
java.net.SocketImplFactory
java.net.SocketOption
java.net.SocketOptions
java.net.SocketPermission java.security.Permission java.io.Serializable
java.net.SocketTimeoutException java.io.InterruptedIOException
java.net.StandardProtocolFamily java.lang.Enum java.net.ProtocolFamily
java.net.StandardSocketOptions
java.net.URI java.lang.Comparable java.io.Serializable
java.net.URISyntaxException java.lang.Exception
java.net.URL java.io.Serializable
java.net.URLClassLoader java.security.SecureClassLoader java.io.Closeable
java.net.URLConnection
java.net.URLDecoder
java.net.URLEncoder
java.net.URLPermission java.security.Permission
java.net.URLStreamHandler
java.net.URLStreamHandlerFactory
java.net.UnixDomainSocketAddress java.net.SocketAddress
java.net.UnknownHostException java.io.IOException
java.net.UnknownServiceException java.io.IOException
java.nio.Buffer
java.nio.BufferOverflowException java.lang.RuntimeException
java.nio.BufferUnderflowException java.lang.RuntimeException
java.nio.ByteBuffer java.nio.Buffer java.lang.Comparable
java.nio.ByteOrder
java.nio.CharBuffer java.nio.Buffer java.lang.Comparable java.lang.Appendable \
    java.lang.CharSequence java.lang.Readable
java.nio.DoubleBuffer java.nio.Buffer java.lang.Comparable
java.nio.FloatBuffer java.nio.Buffer java.lang.Comparable
java.nio.IntBuffer java.nio.Buffer java.lang.Comparable
java.nio.InvalidMarkException java.lang.IllegalStateException
java.nio.LongBuffer java.nio.Buffer java.lang.Comparable
java.nio.MappedByteBuffer java.nio.ByteBuffer
java.nio.ReadOnlyBufferException java.lang.UnsupportedOperationException
java.nio.ShortBuffer java.nio.Buffer java.lang.Comparable
java.nio.channels.AcceptPendingException java.lang.IllegalStateException
java.nio.channels.AlreadyBoundException java.lang.IllegalStateException
java.nio.channels.AlreadyConnectedException java.lang.IllegalStateException
java.nio.channels.AsynchronousByteChannel java.nio.channels.AsynchronousChannel
java.nio.channels.AsynchronousChannel java.nio.channels.Channel
java.nio.channels.AsynchronousChannelGroup
java.nio.channels.AsynchronousCloseException java.nio.channels.ClosedChannelException
java.nio.channels.AsynchronousFileChannel java.nio.channels.AsynchronousChannel
java.nio.channels.AsynchronousServerSocketChannel java.nio.channels.AsynchronousChannel \
    java.nio.channels.NetworkChannel
java.nio.channels.AsynchronousSocketChannel java.nio.channels.AsynchronousByteChannel \
    java.nio.channels.NetworkChannel
java.nio.channels.ByteChannel java.nio.channels.ReadableByteChannel \
    java.nio.channels.WritableByteChannel
java.nio.channels.CancelledKeyException java.lang.IllegalStateException
java.nio.channels.Channel java.io.Closeable
java.nio.channels.Channels
java.nio.channels.ClosedByInterruptException java.nio.channels.AsynchronousCloseException
java.nio.channels.ClosedChannelException java.io.IOException
java.nio.channels.ClosedSelectorException java.lang.IllegalStateException
java.nio.channels.CompletionHandler
java.nio.channels.ConnectionPendingException java.lang.IllegalStateException
java.nio.channels.DatagramChannel java.nio.channels.spi.AbstractSelectableChannel \
    java.nio.channels.ByteChannel java.nio.channels.ScatteringByteChannel \
    java.nio.channels.GatheringByteChannel java.nio.channels.MulticastChannel
java.nio.channels.FileChannel java.nio.channels.spi.AbstractInterruptibleChannel \
    java.nio.channels.SeekableByteChannel java.nio.channels.GatheringByteChannel \
    java.nio.channels.ScatteringByteChannel
java.nio.channels.FileChannel.MapMode
java.nio.channels.FileLock java.lang.AutoCloseable
java.nio.channels.FileLockInterruptionException java.io.IOException
java.nio.channels.GatheringByteChannel java.nio.channels.WritableByteChannel
java.nio.channels.IllegalBlockingModeException java.lang.IllegalStateException
java.nio.channels.IllegalChannelGroupException java.lang.IllegalArgumentException
java.nio.channels.IllegalSelectorException java.lang.IllegalArgumentException
java.nio.channels.InterruptedByTimeoutException java.io.IOException
java.nio.channels.InterruptibleChannel java.nio.channels.Channel
java.nio.channels.MembershipKey
java.nio.channels.MulticastChannel java.nio.channels.NetworkChannel
java.nio.channels.NetworkChannel java.nio.channels.Channel
java.nio.channels.NoConnectionPendingException java.lang.IllegalStateException
java.nio.channels.NonReadableChannelException java.lang.IllegalStateException
java.nio.channels.NonWritableChannelException java.lang.IllegalStateException
java.nio.channels.NotYetBoundException java.lang.IllegalStateException
java.nio.channels.NotYetConnectedException java.lang.IllegalStateException
java.nio.channels.OverlappingFileLockException java.lang.IllegalStateException
java.nio.channels.Pipe
java.nio.channels.Pipe.SinkChannel java.nio.channels.spi.AbstractSelectableChannel \
    java.nio.channels.WritableByteChannel java.nio.channels.GatheringByteChannel
java.nio.channels.Pipe.SourceChannel java.nio.channels.spi.AbstractSelectableChannel \
    java.nio.channels.ReadableByteChannel java.nio.channels.ScatteringByteChannel
java.nio.channels.ReadPendingException java.lang.IllegalStateException
java.nio.channels.ReadableByteChannel java.nio.channels.Channel
java.nio.channels.ScatteringByteChannel java.nio.channels.ReadableByteChannel
java.nio.channels.SeekableByteChannel java.nio.channels.ByteChannel
java.nio.channels.SelectableChannel java.nio.channels.spi.AbstractInterruptibleChannel \
    java.nio.channels.Channel
java.nio.channels.SelectionKey
java.nio.channels.Selector java.io.Closeable
java.nio.channels.ServerSocketChannel java.nio.channels.spi.AbstractSelectableChannel \
    java.nio.channels.NetworkChannel
java.nio.channels.ShutdownChannelGroupException java.lang.IllegalStateException
java.nio.channels.SocketChannel java.nio.channels.spi.AbstractSelectableChannel \
    java.nio.channels.ByteChannel java.nio.channels.ScatteringByteChannel \
    java.nio.channels.GatheringByteChannel java.nio.channels.NetworkChannel
java.nio.channels.UnresolvedAddressException java.lang.IllegalArgumentException
java.nio.channels.UnsupportedAddressTypeException java.lang.IllegalArgumentException
java.nio.channels.WritableByteChannel java.nio.channels.Channel
java.nio.channels.WritePendingException java.lang.IllegalStateException
java.nio.charset.CharacterCodingException java.io.IOException
java.nio.charset.Charset java.lang.Comparable
java.nio.charset.CharsetDecoder
java.nio.charset.CharsetEncoder
java.nio.charset.CoderMalfunctionError java.lang.Error
java.nio.charset.CoderResult
java.nio.charset.CodingErrorAction
java.nio.charset.IllegalCharsetNameException java.lang.IllegalArgumentException
java.nio.charset.MalformedInputException java.nio.charset.CharacterCodingException
java.nio.charset.StandardCharsets
java.nio.charset.UnmappableCharacterException java.nio.charset.CharacterCodingException
java.nio.charset.UnsupportedCharsetException java.lang.IllegalArgumentException
java.nio.file.AccessDeniedException java.nio.file.FileSystemException
java.nio.file.AccessMode java.lang.Enum
java.nio.file.AtomicMoveNotSupportedException java.nio.file.FileSystemException
java.nio.file.ClosedDirectoryStreamException java.lang.IllegalStateException
java.nio.file.ClosedFileSystemException java.lang.IllegalStateException
java.nio.file.ClosedWatchServiceException java.lang.IllegalStateException
java.nio.file.CopyOption
java.nio.file.DirectoryIteratorException java.util.ConcurrentModificationException
java.nio.file.DirectoryNotEmptyException java.nio.file.FileSystemException
java.nio.file.DirectoryStream java.io.Closeable java.lang.Iterable
java.nio.file.DirectoryStream.Filter
java.nio.file.FileAlreadyExistsException java.nio.file.FileSystemException
java.nio.file.FileStore
java.nio.file.FileSystem java.io.Closeable
java.nio.file.FileSystemAlreadyExistsException java.lang.RuntimeException
java.nio.file.FileSystemException java.io.IOException
java.nio.file.FileSystemLoopException java.nio.file.FileSystemException
java.nio.file.FileSystemNotFoundException java.lang.RuntimeException
java.nio.file.FileSystems
java.nio.file.FileVisitOption java.lang.Enum
java.nio.file.FileVisitResult java.lang.Enum
java.nio.file.FileVisitor
java.nio.file.Files
java.nio.file.InvalidPathException java.lang.IllegalArgumentException
java.nio.file.LinkOption java.lang.Enum java.nio.file.OpenOption java.nio.file.CopyOption
java.nio.file.LinkPermission java.security.BasicPermission
java.nio.file.NoSuchFileException java.nio.file.FileSystemException
java.nio.file.NotDirectoryException java.nio.file.FileSystemException
java.nio.file.NotLinkException java.nio.file.FileSystemException
java.nio.file.OpenOption
java.nio.file.Path java.lang.Comparable java.lang.Iterable java.nio.file.Watchable
java.nio.file.PathMatcher
java.nio.file.Paths
java.nio.file.ProviderMismatchException java.lang.IllegalArgumentException
java.nio.file.ProviderNotFoundException java.lang.RuntimeException
java.nio.file.ReadOnlyFileSystemException java.lang.UnsupportedOperationException
java.nio.file.SecureDirectoryStream java.nio.file.DirectoryStream
java.nio.file.SimpleFileVisitor java.nio.file.FileVisitor
java.nio.file.StandardCopyOption java.lang.Enum java.nio.file.CopyOption
java.nio.file.StandardOpenOption java.lang.Enum java.nio.file.OpenOption
java.nio.file.StandardWatchEventKinds
java.nio.file.WatchEvent
java.nio.file.WatchEvent.Kind
java.nio.file.WatchEvent.Modifier
java.nio.file.WatchKey
java.nio.file.WatchService java.io.Closeable
java.nio.file.Watchable
java.nio.file.attribute.AclEntry
java.nio.file.attribute.AclEntry.Builder
java.nio.file.attribute.AclEntryFlag java.lang.Enum
java.nio.file.attribute.AclEntryPermission java.lang.Enum
java.nio.file.attribute.AclEntryType java.lang.Enum
java.nio.file.attribute.AclFileAttributeView java.nio.file.attribute.FileOwnerAttributeView
java.nio.file.attribute.AttributeView
java.nio.file.attribute.BasicFileAttributeView java.nio.file.attribute.FileAttributeView
java.nio.file.attribute.BasicFileAttributes
java.nio.file.attribute.DosFileAttributeView java.nio.file.attribute.BasicFileAttributeView
java.nio.file.attribute.DosFileAttributes java.nio.file.attribute.BasicFileAttributes
java.nio.file.attribute.FileAttribute
java.nio.file.attribute.FileAttributeView java.nio.file.attribute.AttributeView
java.nio.file.attribute.FileOwnerAttributeView java.nio.file.attribute.FileAttributeView
java.nio.file.attribute.FileStoreAttributeView java.nio.file.attribute.AttributeView
java.nio.file.attribute.FileTime java.lang.Comparable
java.nio.file.attribute.GroupPrincipal java.nio.file.attribute.UserPrincipal
java.nio.file.attribute.PosixFileAttributeView java.nio.file.attribute.BasicFileAttributeView \
    java.nio.file.attribute.FileOwnerAttributeView
java.nio.file.attribute.PosixFileAttributes java.nio.file.attribute.BasicFileAttributes
java.nio.file.attribute.PosixFilePermission java.lang.Enum
java.nio.file.attribute.PosixFilePermissions
java.nio.file.attribute.UserDefinedFileAttributeView java.nio.file.attribute.FileAttributeView
java.nio.file.attribute.UserPrincipal java.security.Principal
java.nio.file.attribute.UserPrincipalLookupService
java.nio.file.attribute.UserPrincipalNotFoundException java.io.IOException
java.security.AccessControlContext
java.security.AccessControlException java.lang.SecurityException
java.security.AccessController
java.security.AlgorithmConstraints
java.security.AlgorithmParameterGenerator
java.security.AlgorithmParameterGeneratorSpi
java.security.AlgorithmParameters
java.security.AlgorithmParametersSpi
java.security.AllPermission java.security.Permission
java.security.AuthProvider java.security.Provider
java.security.BasicPermission java.security.Permission java.io.Serializable
java.security.Certificate
java.security.CodeSigner java.io.Serializable
java.security.CodeSource java.io.Serializable
java.security.CryptoPrimitive java.lang.Enum
java.security.DigestException java.security.GeneralSecurityException
java.security.DigestInputStream java.io.FilterInputStream
java.security.DigestOutputStream java.io.FilterOutputStream
java.security.DomainCombiner
java.security.DomainLoadStoreParameter java.security.KeyStore.LoadStoreParameter
java.security.DrbgParameters
java.security.DrbgParameters.Capability java.lang.Enum
java.security.DrbgParameters.Instantiation java.security.SecureRandomParameters
java.security.DrbgParameters.NextBytes java.security.SecureRandomParameters
java.security.DrbgParameters.Reseed java.security.SecureRandomParameters
java.security.GeneralSecurityException java.lang.Exception
java.security.Guard
java.security.GuardedObject java.io.Serializable
java.security.Identity java.security.Principal java.io.Serializable
java.security.IdentityScope java.security.Identity
java.security.InvalidAlgorithmParameterException java.security.GeneralSecurityException
java.security.InvalidKeyException java.security.KeyException
java.security.InvalidParameterException java.lang.IllegalArgumentException
java.security.Key java.io.Serializable
java.security.KeyException java.security.GeneralSecurityException
java.security.KeyFactory
java.security.KeyFactorySpi
java.security.KeyManagementException java.security.KeyException
java.security.KeyPair java.io.Serializable
java.security.KeyPairGenerator java.security.KeyPairGeneratorSpi
java.security.KeyPairGeneratorSpi
java.security.KeyRep java.io.Serializable
java.security.KeyRep.Type java.lang.Enum
java.security.KeyStore
java.security.KeyStore.Builder
java.security.KeyStore.CallbackHandlerProtection java.security.KeyStore.ProtectionParameter
java.security.KeyStore.Entry
java.security.KeyStore.Entry.Attribute
java.security.KeyStore.LoadStoreParameter
java.security.KeyStore.PasswordProtection java.security.KeyStore.ProtectionParameter \
    javax.security.auth.Destroyable
java.security.KeyStore.PrivateKeyEntry java.security.KeyStore.Entry
java.security.KeyStore.ProtectionParameter
java.security.KeyStore.SecretKeyEntry java.security.KeyStore.Entry
java.security.KeyStore.TrustedCertificateEntry java.security.KeyStore.Entry
java.security.KeyStoreException java.security.GeneralSecurityException
java.security.KeyStoreSpi
java.security.MessageDigest java.security.MessageDigestSpi
java.security.MessageDigestSpi
java.security.NoSuchAlgorithmException java.security.GeneralSecurityException
java.security.NoSuchProviderException java.security.GeneralSecurityException
java.security.PKCS12Attribute java.security.KeyStore.Entry.Attribute
java.security.Permission java.security.Guard java.io.Serializable
java.security.PermissionCollection java.io.Serializable
java.security.Permissions java.security.PermissionCollection java.io.Serializable
java.security.Policy
java.security.Policy.Parameters
java.security.PolicySpi
java.security.Principal
java.security.PrivateKey java.security.Key javax.security.auth.Destroyable
java.security.PrivilegedAction
java.security.PrivilegedActionException java.lang.Exception
java.security.PrivilegedExceptionAction
java.security.ProtectionDomain
java.security.Provider java.util.Properties
java.security.Provider.Service
java.security.ProviderException java.lang.RuntimeException
java.security.PublicKey java.security.Key
java.security.SecureClassLoader java.lang.ClassLoader
java.security.SecureRandom java.util.Random
java.security.SecureRandomParameters
java.security.SecureRandomSpi java.io.Serializable
java.security.Security
java.security.SecurityPermission java.security.BasicPermission
java.security.Signature java.security.SignatureSpi
java.security.SignatureException java.security.GeneralSecurityException
java.security.SignatureSpi
java.security.SignedObject java.io.Serializable
java.security.Signer java.security.Identity
java.security.Timestamp java.io.Serializable
java.security.URIParameter java.security.Policy.Parameters \
    javax.security.auth.login.Configuration.Parameters
java.security.UnrecoverableEntryException java.security.GeneralSecurityException
java.security.UnrecoverableKeyException java.security.UnrecoverableEntryException
java.security.UnresolvedPermission java.security.Permission java.io.Serializable
java.text.Annotation
java.text.AttributedCharacterIterator java.text.CharacterIterator
java.text.AttributedCharacterIterator.Attribute java.io.Serializable
java.text.AttributedString
java.text.Bidi
java.text.BreakIterator java.lang.Cloneable
java.text.CharacterIterator java.lang.Cloneable
java.text.ChoiceFormat java.text.NumberFormat
java.text.CollationElementIterator
java.text.CollationKey java.lang.Comparable
java.text.Collator java.util.Comparator java.lang.Cloneable
java.text.CompactNumberFormat java.text.NumberFormat
java.text.DateFormat java.text.Format
java.text.DateFormat.Field java.text.Format.Field
java.text.DateFormatSymbols java.io.Serializable java.lang.Cloneable
java.text.DecimalFormat java.text.NumberFormat
java.text.DecimalFormatSymbols java.lang.Cloneable java.io.Serializable
java.text.FieldPosition
java.text.Format java.io.Serializable java.lang.Cloneable
java.text.Format.Field java.text.AttributedCharacterIterator.Attribute
java.text.MessageFormat java.text.Format
java.text.MessageFormat.Field java.text.Format.Field
java.text.Normalizer
java.text.Normalizer.Form java.lang.Enum
java.text.NumberFormat java.text.Format
java.text.NumberFormat.Field java.text.Format.Field
java.text.NumberFormat.Style java.lang.Enum
java.text.ParseException java.lang.Exception
java.text.ParsePosition
java.text.RuleBasedCollator java.text.Collator
java.text.SimpleDateFormat java.text.DateFormat
java.text.StringCharacterIterator java.text.CharacterIterator
java.time.Clock java.time.InstantSource
java.time.DateTimeException java.lang.RuntimeException
java.time.DayOfWeek java.lang.Enum java.time.temporal.TemporalAccessor \
    java.time.temporal.TemporalAdjuster
java.time.Duration java.time.temporal.TemporalAmount java.lang.Comparable java.io.Serializable
java.time.Instant java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.InstantSource
java.time.LocalDate java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.time.chrono.ChronoLocalDate java.io.Serializable
java.time.LocalDateTime java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.time.chrono.ChronoLocalDateTime java.io.Serializable
java.time.LocalTime java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.Month java.lang.Enum java.time.temporal.TemporalAccessor \
    java.time.temporal.TemporalAdjuster
java.time.MonthDay java.time.temporal.TemporalAccessor java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.OffsetDateTime java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.OffsetTime java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.Period java.time.chrono.ChronoPeriod java.io.Serializable
java.time.Year java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.YearMonth java.time.temporal.Temporal java.time.temporal.TemporalAdjuster \
    java.lang.Comparable java.io.Serializable
java.time.ZoneId java.io.Serializable
java.time.ZoneOffset java.time.ZoneId java.time.temporal.TemporalAccessor \
    java.time.temporal.TemporalAdjuster java.lang.Comparable java.io.Serializable
java.time.ZonedDateTime java.time.temporal.Temporal java.time.chrono.ChronoZonedDateTime \
    java.io.Serializable
java.time.chrono.AbstractChronology java.time.chrono.Chronology
java.time.chrono.ChronoLocalDate java.time.temporal.Temporal \
    java.time.temporal.TemporalAdjuster java.lang.Comparable
java.time.chrono.ChronoLocalDateTime java.time.temporal.Temporal \
    java.time.temporal.TemporalAdjuster java.lang.Comparable
java.time.chrono.ChronoPeriod java.time.temporal.TemporalAmount
java.time.chrono.ChronoZonedDateTime java.time.temporal.Temporal java.lang.Comparable
java.time.chrono.Chronology java.lang.Comparable
java.time.chrono.Era java.time.temporal.TemporalAccessor java.time.temporal.TemporalAdjuster
java.time.chrono.HijrahChronology java.time.chrono.AbstractChronology java.io.Serializable
java.time.chrono.HijrahDate java.time.chrono.ChronoLocalDateImpl \
    java.time.chrono.ChronoLocalDate java.io.Serializable
java.time.chrono.HijrahEra java.lang.Enum java.time.chrono.Era
java.time.chrono.IsoChronology java.time.chrono.AbstractChronology java.io.Serializable
java.time.chrono.IsoEra java.lang.Enum java.time.chrono.Era
java.time.chrono.JapaneseChronology java.time.chrono.AbstractChronology java.io.Serializable
java.time.chrono.JapaneseDate java.time.chrono.ChronoLocalDateImpl \
    java.time.chrono.ChronoLocalDate java.io.Serializable
java.time.chrono.JapaneseEra java.time.chrono.Era java.io.Serializable
java.time.chrono.MinguoChronology java.time.chrono.AbstractChronology java.io.Serializable
java.time.chrono.MinguoDate java.time.chrono.ChronoLocalDateImpl \
    java.time.chrono.ChronoLocalDate java.io.Serializable
java.time.chrono.MinguoEra java.lang.Enum java.time.chrono.Era
java.time.chrono.ThaiBuddhistChronology java.time.chrono.AbstractChronology java.io.Serializable
java.time.chrono.ThaiBuddhistDate java.time.chrono.ChronoLocalDateImpl \
    java.time.chrono.ChronoLocalDate java.io.Serializable
java.time.chrono.ThaiBuddhistEra java.lang.Enum java.time.chrono.Era
java.time.format.DateTimeFormatter
java.time.format.DateTimeFormatterBuilder
java.time.format.DateTimeParseException java.time.DateTimeException
java.time.format.DecimalStyle
java.time.format.FormatStyle java.lang.Enum
java.time.format.ResolverStyle java.lang.Enum
java.time.format.SignStyle java.lang.Enum
java.time.format.TextStyle java.lang.Enum
java.time.temporal.ChronoField java.lang.Enum java.time.temporal.TemporalField
java.time.temporal.ChronoUnit java.lang.Enum java.time.temporal.TemporalUnit
java.time.temporal.IsoFields
java.time.temporal.JulianFields
java.time.temporal.Temporal java.time.temporal.TemporalAccessor
java.time.temporal.TemporalAccessor
java.time.temporal.TemporalAdjuster
java.time.temporal.TemporalAdjusters
java.time.temporal.TemporalAmount
java.time.temporal.TemporalField
java.time.temporal.TemporalQueries
java.time.temporal.TemporalQuery
java.time.temporal.TemporalUnit
java.time.temporal.UnsupportedTemporalTypeException java.time.DateTimeException
java.time.temporal.ValueRange java.io.Serializable
java.time.temporal.WeekFields java.io.Serializable
java.util.AbstractCollection java.util.Collection
java.util.AbstractList java.util.AbstractCollection java.util.List
java.util.AbstractMap java.util.Map
java.util.AbstractMap.SimpleEntry java.util.Map.Entry java.io.Serializable
java.util.AbstractMap.SimpleImmutableEntry java.util.Map.Entry java.io.Serializable
java.util.AbstractQueue java.util.AbstractCollection java.util.Queue
java.util.AbstractSequentialList java.util.AbstractList
java.util.AbstractSet java.util.AbstractCollection java.util.Set
java.util.ArrayDeque java.util.AbstractCollection java.util.Deque java.lang.Cloneable \
    java.io.Serializable
java.util.ArrayList java.util.AbstractList java.util.List java.util.RandomAccess \
    java.lang.Cloneable java.io.Serializable
java.util.Arrays
java.util.Base64
java.util.Base64.Decoder
java.util.Base64.Encoder
java.util.BitSet java.lang.Cloneable java.io.Serializable
java.util.Calendar java.io.Serializable java.lang.Cloneable java.lang.Comparable
java.util.Calendar.Builder
java.util.Collection java.lang.Iterable
java.util.Collections
java.util.Comparator
java.util.ConcurrentModificationException java.lang.RuntimeException
java.util.Currency java.io.Serializable
java.util.Date java.io.Serializable java.lang.Cloneable java.lang.Comparable
java.util.Deque java.util.Queue
java.util.Dictionary
java.util.DoubleSummaryStatistics java.util.function.DoubleConsumer
java.util.DuplicateFormatFlagsException java.util.IllegalFormatException
java.util.EmptyStackException java.lang.RuntimeException
java.util.EnumMap java.util.AbstractMap java.io.Serializable java.lang.Cloneable
java.util.EnumSet java.util.AbstractSet java.lang.Cloneable java.io.Serializable
java.util.Enumeration
java.util.EventListener
java.util.EventListenerProxy java.util.EventListener
java.util.EventObject java.io.Serializable
java.util.FormatFlagsConversionMismatchException java.util.IllegalFormatException
java.util.Formattable
java.util.FormattableFlags
java.util.Formatter java.io.Closeable java.io.Flushable
java.util.Formatter.BigDecimalLayoutForm java.lang.Enum
java.util.FormatterClosedException java.lang.IllegalStateException
java.util.GregorianCalendar java.util.Calendar
java.util.HashMap java.util.AbstractMap java.util.Map java.lang.Cloneable java.io.Serializable
java.util.HashSet java.util.AbstractSet java.util.Set java.lang.Cloneable java.io.Serializable
java.util.Hashtable java.util.Dictionary java.util.Map java.lang.Cloneable java.io.Serializable
java.util.HexFormat
java.util.IdentityHashMap java.util.AbstractMap java.util.Map java.io.Serializable \
    java.lang.Cloneable
java.util.IllegalFormatCodePointException java.util.IllegalFormatException
java.util.IllegalFormatConversionException java.util.IllegalFormatException
java.util.IllegalFormatException java.lang.IllegalArgumentException
java.util.IllegalFormatFlagsException java.util.IllegalFormatException
java.util.IllegalFormatPrecisionException java.util.IllegalFormatException
java.util.IllegalFormatWidthException java.util.IllegalFormatException
java.util.IllformedLocaleException java.lang.RuntimeException
java.util.InputMismatchException java.util.NoSuchElementException
java.util.IntSummaryStatistics java.util.function.IntConsumer
java.util.InvalidPropertiesFormatException java.io.IOException
java.util.Iterator
java.util.LinkedHashMap java.util.HashMap java.util.Map
java.util.LinkedHashSet java.util.HashSet java.util.Set java.lang.Cloneable java.io.Serializable
java.util.LinkedList java.util.AbstractSequentialList java.util.List java.util.Deque \
    java.lang.Cloneable java.io.Serializable
java.util.List java.util.Collection
java.util.ListIterator java.util.Iterator
java.util.ListResourceBundle java.util.ResourceBundle
java.util.Locale java.lang.Cloneable java.io.Serializable
java.util.Locale.Builder
java.util.Locale.Category java.lang.Enum
java.util.Locale.FilteringMode java.lang.Enum
java.util.Locale.IsoCountryCode java.lang.Enum
java.util.Locale.LanguageRange
java.util.LongSummaryStatistics java.util.function.LongConsumer java.util.function.IntConsumer
java.util.Map
java.util.Map.Entry
java.util.MissingFormatArgumentException java.util.IllegalFormatException
java.util.MissingFormatWidthException java.util.IllegalFormatException
java.util.MissingResourceException java.lang.RuntimeException
java.util.NavigableMap java.util.SortedMap
java.util.NavigableSet java.util.SortedSet
java.util.NoSuchElementException java.lang.RuntimeException
java.util.Objects
java.util.Observable
java.util.Observer
java.util.Optional
java.util.OptionalDouble
java.util.OptionalInt
java.util.OptionalLong
java.util.PrimitiveIterator java.util.Iterator
java.util.PrimitiveIterator.OfDouble java.util.PrimitiveIterator
java.util.PrimitiveIterator.OfInt java.util.PrimitiveIterator
java.util.PrimitiveIterator.OfLong java.util.PrimitiveIterator
java.util.PriorityQueue java.util.AbstractQueue java.io.Serializable
java.util.Properties java.util.Hashtable
java.util.PropertyPermission java.security.BasicPermission
java.util.PropertyResourceBundle java.util.ResourceBundle
java.util.Queue java.util.Collection
java.util.Random java.util.random.RandomGenerator java.io.Serializable
java.util.RandomAccess
java.util.ResourceBundle
java.util.ResourceBundle.Control
java.util.Scanner java.util.Iterator java.io.Closeable
java.util.ServiceConfigurationError java.lang.Error
java.util.ServiceLoader java.lang.Iterable
java.util.ServiceLoader.Provider java.util.function.Supplier
java.util.Set java.util.Collection
java.util.SimpleTimeZone java.util.TimeZone
java.util.SortedMap java.util.Map
java.util.SortedSet java.util.Set
java.util.Spliterator
java.util.Spliterator.OfDouble java.util.Spliterator.OfPrimitive
java.util.Spliterator.OfInt java.util.Spliterator.OfPrimitive
java.util.Spliterator.OfLong java.util.Spliterator.OfPrimitive
java.util.Spliterator.OfPrimitive java.util.Spliterator
java.util.Spliterators
java.util.Spliterators.AbstractDoubleSpliterator java.util.Spliterator.OfDouble
java.util.Spliterators.AbstractIntSpliterator java.util.Spliterator.OfInt
java.util.Spliterators.AbstractLongSpliterator java.util.Spliterator.OfLong
java.util.Spliterators.AbstractSpliterator java.util.Spliterator
java.util.SplittableRandom java.util.random.RandomGenerator \
    java.util.random.RandomGenerator.SplittableGenerator
java.util.Stack java.util.Vector
java.util.StringJoiner
java.util.StringTokenizer java.util.Enumeration
java.util.TimeZone java.io.Serializable java.lang.Cloneable
java.util.Timer
java.util.TimerTask java.lang.Runnable
java.util.TooManyListenersException java.lang.Exception
java.util.TreeMap java.util.AbstractMap java.util.NavigableMap java.lang.Cloneable \
    java.io.Serializable
java.util.TreeSet java.util.AbstractSet java.util.NavigableSet java.lang.Cloneable \
    java.io.Serializable
java.util.UUID java.io.Serializable java.lang.Comparable
java.util.UnknownFormatConversionException java.util.IllegalFormatException
java.util.UnknownFormatFlagsException java.util.IllegalFormatException
java.util.Vector java.util.AbstractList java.util.List java.util.RandomAccess \
    java.lang.Cloneable java.io.Serializable
java.util.WeakHashMap java.util.AbstractMap java.util.Map
java.util.concurrent.AbstractExecutorService java.util.concurrent.ExecutorService
java.util.concurrent.ArrayBlockingQueue java.util.AbstractQueue \
    java.util.concurrent.BlockingQueue java.io.Serializable
java.util.concurrent.BlockingDeque java.util.concurrent.BlockingQueue java.util.Deque
java.util.concurrent.BlockingQueue java.util.Queue
java.util.concurrent.BrokenBarrierException java.lang.Exception
java.util.concurrent.Callable
java.util.concurrent.CancellationException java.lang.IllegalStateException
java.util.concurrent.CompletableFuture java.util.concurrent.Future \
    java.util.concurrent.CompletionStage
java.util.concurrent.CompletableFuture.AsynchronousCompletionTask
java.util.concurrent.CompletionException java.lang.RuntimeException
java.util.concurrent.CompletionService
java.util.concurrent.CompletionStage
java.util.concurrent.ConcurrentHashMap java.util.AbstractMap \
    java.util.concurrent.ConcurrentMap java.io.Serializable
java.util.concurrent.ConcurrentHashMap.KeySetView \
    java.util.concurrent.ConcurrentHashMap.CollectionView java.util.Set java.io.Serializable
java.util.concurrent.ConcurrentLinkedDeque java.util.AbstractCollection java.util.Deque \
    java.io.Serializable
java.util.concurrent.ConcurrentLinkedQueue java.util.AbstractQueue java.util.Queue \
    java.io.Serializable
java.util.concurrent.ConcurrentMap java.util.Map
java.util.concurrent.ConcurrentNavigableMap java.util.concurrent.ConcurrentMap \
    java.util.NavigableMap
java.util.concurrent.ConcurrentSkipListMap java.util.AbstractMap \
    java.util.concurrent.ConcurrentNavigableMap java.lang.Cloneable java.io.Serializable
java.util.concurrent.ConcurrentSkipListSet java.util.AbstractSet java.util.NavigableSet \
    java.lang.Cloneable java.io.Serializable
java.util.concurrent.CopyOnWriteArrayList java.util.List java.util.RandomAccess \
    java.lang.Cloneable java.io.Serializable
java.util.concurrent.CopyOnWriteArraySet java.util.AbstractSet java.io.Serializable
java.util.concurrent.CountDownLatch
java.util.concurrent.CountedCompleter java.util.concurrent.ForkJoinTask
java.util.concurrent.CyclicBarrier
java.util.concurrent.DelayQueue java.util.AbstractQueue java.util.concurrent.BlockingQueue
java.util.concurrent.Delayed java.lang.Comparable
java.util.concurrent.Exchanger
java.util.concurrent.ExecutionException java.lang.Exception
java.util.concurrent.Executor
java.util.concurrent.ExecutorCompletionService java.util.concurrent.CompletionService
java.util.concurrent.ExecutorService java.util.concurrent.Executor
java.util.concurrent.Executors
java.util.concurrent.Flow
java.util.concurrent.Flow.Processor java.util.concurrent.Flow.Subscriber \
    java.util.concurrent.Flow.Publisher
java.util.concurrent.Flow.Publisher
java.util.concurrent.Flow.Subscriber
java.util.concurrent.Flow.Subscription
java.util.concurrent.ForkJoinPool java.util.concurrent.AbstractExecutorService
java.util.concurrent.ForkJoinPool.ForkJoinWorkerThreadFactory
java.util.concurrent.ForkJoinPool.ManagedBlocker
java.util.concurrent.ForkJoinTask java.util.concurrent.Future java.io.Serializable
java.util.concurrent.ForkJoinWorkerThread java.lang.Thread
java.util.concurrent.Future
java.util.concurrent.FutureTask java.util.concurrent.RunnableFuture
java.util.concurrent.LinkedBlockingDeque java.util.AbstractQueue \
    java.util.concurrent.BlockingDeque java.io.Serializable
java.util.concurrent.LinkedBlockingQueue java.util.AbstractQueue \
    java.util.concurrent.BlockingQueue java.io.Serializable
java.util.concurrent.LinkedTransferQueue java.util.AbstractQueue \
    java.util.concurrent.TransferQueue java.io.Serializable
java.util.concurrent.Phaser
java.util.concurrent.PriorityBlockingQueue java.util.AbstractQueue \
    java.util.concurrent.BlockingQueue java.io.Serializable
java.util.concurrent.RecursiveAction java.util.concurrent.ForkJoinTask
java.util.concurrent.RecursiveTask java.util.concurrent.ForkJoinTask
java.util.concurrent.RejectedExecutionException java.lang.RuntimeException
java.util.concurrent.RejectedExecutionHandler
java.util.concurrent.RunnableFuture java.lang.Runnable java.util.concurrent.Future
java.util.concurrent.RunnableScheduledFuture java.util.concurrent.RunnableFuture \
    java.util.concurrent.ScheduledFuture
java.util.concurrent.ScheduledExecutorService java.util.concurrent.ExecutorService
java.util.concurrent.ScheduledFuture java.util.concurrent.Delayed java.util.concurrent.Future
java.util.concurrent.ScheduledThreadPoolExecutor java.util.concurrent.ThreadPoolExecutor \
    java.util.concurrent.ScheduledExecutorService
java.util.concurrent.Semaphore java.io.Serializable
java.util.concurrent.SubmissionPublisher java.util.concurrent.Flow.Publisher \
    java.lang.AutoCloseable
java.util.concurrent.SynchronousQueue java.util.AbstractQueue \
    java.util.concurrent.BlockingQueue java.io.Serializable
java.util.concurrent.ThreadFactory
java.util.concurrent.ThreadLocalRandom java.util.Random
java.util.concurrent.ThreadPoolExecutor java.util.concurrent.AbstractExecutorService
java.util.concurrent.ThreadPoolExecutor.AbortPolicy java.util.concurrent.RejectedExecutionHandler
java.util.concurrent.ThreadPoolExecutor.CallerRunsPolicy \
    java.util.concurrent.RejectedExecutionHandler
java.util.concurrent.ThreadPoolExecutor.DiscardOldestPolicy \
    java.util.concurrent.RejectedExecutionHandler
java.util.concurrent.ThreadPoolExecutor.DiscardPolicy java.util.concurrent.RejectedExecutionHandler
java.util.concurrent.TimeUnit java.lang.Enum
java.util.concurrent.TimeoutException java.lang.Exception
java.util.concurrent.TransferQueue java.util.concurrent.BlockingQueue
java.util.concurrent.atomic.AtomicBoolean java.io.Serializable
java.util.concurrent.atomic.AtomicInteger java.lang.Number java.io.Serializable
java.util.concurrent.atomic.AtomicIntegerArray java.io.Serializable
java.util.concurrent.atomic.AtomicIntegerFieldUpdater
java.util.concurrent.atomic.AtomicLong java.lang.Number java.io.Serializable
java.util.concurrent.atomic.AtomicLongArray java.io.Serializable
java.util.concurrent.atomic.AtomicLongFieldUpdater
java.util.concurrent.atomic.AtomicMarkableReference
java.util.concurrent.atomic.AtomicReference java.io.Serializable
java.util.concurrent.atomic.AtomicReferenceArray java.io.Serializable
java.util.concurrent.atomic.AtomicReferenceFieldUpdater
java.util.concurrent.atomic.AtomicStampedReference
java.util.concurrent.atomic.DoubleAccumulator java.util.concurrent.atomic.Striped64 \
    java.io.Serializable
java.util.concurrent.atomic.DoubleAdder java.util.concurrent.atomic.Striped64 java.io.Serializable
java.util.concurrent.atomic.LongAccumulator java.util.concurrent.atomic.Striped64 \
    java.io.Serializable
java.util.concurrent.atomic.LongAdder java.util.concurrent.atomic.Striped64 java.io.Serializable
java.util.concurrent.locks.AbstractOwnableSynchronizer java.io.Serializable
java.util.concurrent.locks.AbstractQueuedLongSynchronizer \
    java.util.concurrent.locks.AbstractOwnableSynchronizer java.io.Serializable
java.util.concurrent.locks.AbstractQueuedLongSynchronizer.ConditionObject \
    java.util.concurrent.locks.Condition java.io.Serializable
java.util.concurrent.locks.AbstractQueuedSynchronizer \
    java.util.concurrent.locks.AbstractOwnableSynchronizer java.io.Serializable
java.util.concurrent.locks.AbstractQueuedSynchronizer.ConditionObject \
    java.util.concurrent.locks.Condition java.io.Serializable
java.util.concurrent.locks.Condition
java.util.concurrent.locks.Lock
java.util.concurrent.locks.LockSupport
java.util.concurrent.locks.ReadWriteLock
java.util.concurrent.locks.ReentrantLock java.util.concurrent.locks.Lock java.io.Serializable
java.util.concurrent.locks.ReentrantReadWriteLock java.util.concurrent.locks.ReadWriteLock \
    java.io.Serializable
java.util.concurrent.locks.ReentrantReadWriteLock.ReadLock java.util.concurrent.locks.Lock \
    java.io.Serializable
java.util.concurrent.locks.ReentrantReadWriteLock.WriteLock java.util.concurrent.locks.Lock \
    java.io.Serializable
java.util.concurrent.locks.StampedLock java.io.Serializable
java.util.function.BiConsumer
java.util.function.BiFunction
java.util.function.BiPredicate
java.util.function.BinaryOperator java.util.function.BiFunction
java.util.function.BooleanSupplier
java.util.function.Consumer
java.util.function.DoubleBinaryOperator
java.util.function.DoubleConsumer
java.util.function.DoubleFunction
java.util.function.DoublePredicate
java.util.function.DoubleSupplier
java.util.function.DoubleToIntFunction
java.util.function.DoubleToLongFunction
java.util.function.DoubleUnaryOperator
java.util.function.Function
java.util.function.IntBinaryOperator
java.util.function.IntConsumer
java.util.function.IntFunction
java.util.function.IntPredicate
java.util.function.IntSupplier
java.util.function.IntToDoubleFunction
java.util.function.IntToLongFunction
java.util.function.IntUnaryOperator
java.util.function.LongBinaryOperator
java.util.function.LongConsumer
java.util.function.LongFunction
java.util.function.LongPredicate
java.util.function.LongSupplier
java.util.function.LongToDoubleFunction
java.util.function.LongToIntFunction
java.util.function.LongUnaryOperator
java.util.function.ObjDoubleConsumer
java.util.function.ObjIntConsumer
java.util.function.ObjLongConsumer
java.util.function.Predicate
java.util.function.Supplier
java.util.function.ToDoubleBiFunction
java.util.function.ToDoubleFunction
java.util.function.ToIntBiFunction
java.util.function.ToIntFunction
java.util.function.ToLongBiFunction
java.util.function.ToLongFunction
java.util.function.UnaryOperator java.util.function.Function
java.util.regex.MatchResult
java.util.regex.Matcher java.util.regex.MatchResult
java.util.regex.Pattern java.io.Serializable
java.util.regex.PatternSyntaxException java.lang.IllegalArgumentException
java.util.stream.BaseStream java.lang.AutoCloseable
java.util.stream.Collector
java.util.stream.Collector.Characteristics java.lang.Enum
java.util.stream.Collectors
java.util.stream.DoubleStream java.util.stream.BaseStream
java.util.stream.DoubleStream.Builder java.util.function.DoubleConsumer
java.util.stream.DoubleStream.DoubleMapMultiConsumer
java.util.stream.IntStream java.util.stream.BaseStream
java.util.stream.IntStream.Builder java.util.function.IntConsumer
java.util.stream.IntStream.IntMapMultiConsumer
java.util.stream.LongStream java.util.stream.BaseStream
java.util.stream.LongStream.Builder java.util.function.LongConsumer
java.util.stream.LongStream.LongMapMultiConsumer
java.util.stream.Stream java.util.stream.BaseStream
java.util.stream.Stream.Builder java.util.function.Consumer
java.util.stream.StreamSupport
"""
